// The render-path choice (render-path-probe.ts), the crash breaker (render-path-breaker.ts) and
// Renderer's retry-once rule, on fakes: no browser needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument } from 'pdf-lib';
import { probeRenderPath } from '../../../server/src/render/render-path-probe.ts';
import { CRASHES_TO_SWITCH_OFF, RenderPathBreaker } from '../../../server/src/render/render-path-breaker.ts';
import { leaseMode, type RenderPathMode } from '../../../server/src/render/render-path.ts';
import { PageCrashedError, RendererCrashedError } from '../../../server/src/render/errors.ts';
import { Renderer } from '../../../server/src/render/renderer.ts';
import type { CdpPage } from '../../../server/src/render/cdp-page.ts';
import type { PageSource } from '../../../server/src/render/page-source.ts';
import { DEFAULT_PDF_OPTIONS } from '../../../server/src/render/pdf-options.ts';

test('the probe takes the best mode that passes, and says why the better ones were passed over', async () => {
  const tried: RenderPathMode[] = [];
  const path = await probeRenderPath({
    isSwitchedOff: () => undefined,
    tryMode: async (mode) => {
      tried.push(mode);
      if (mode === 'virtual-begin-frame') throw new Error("'HeadlessExperimental.beginFrame' wasn't found");
    },
  });
  assert.deepEqual(tried, ['virtual-begin-frame', 'virtual-real-frames']);
  assert.equal(path.mode, 'virtual-real-frames');
  assert.deepEqual(
    path.disabled.map((entry) => [entry.mode, entry.by]),
    [['virtual-begin-frame', 'probe']],
  );
  assert.match(path.reason, /beginFrame' wasn't found/);
});

test('the probe skips modes the breaker switched off or the engine lacks, and falls back to the wall clock when nothing passes', async () => {
  const tried: RenderPathMode[] = [];
  const path = await probeRenderPath({
    isSwitchedOff: (mode) => (mode === 'virtual-begin-frame' ? '3 browser crashes' : undefined),
    lacks: () => undefined,
    tryMode: async (mode) => {
      tried.push(mode);
      throw new Error('no frame came');
    },
  });
  assert.deepEqual(tried, ['virtual-real-frames']);
  assert.equal(path.mode, 'real');
  assert.deepEqual(
    path.disabled.map((entry) => [entry.mode, entry.by]),
    [
      ['virtual-begin-frame', 'breaker'],
      ['virtual-real-frames', 'probe'],
    ],
  );
});

test('a mode whose try hangs counts as failed once the probe time is up', async () => {
  const path = await probeRenderPath(
    { isSwitchedOff: () => undefined, tryMode: (mode) => (mode === 'virtual-begin-frame' ? new Promise(() => undefined) : Promise.resolve()) },
    50,
  );
  assert.equal(path.mode, 'virtual-real-frames');
  assert.match(path.disabled[0]!.reason, /no answer within 50 ms/);
});

test('the breaker switches a mode off for one browser build after repeated crashes within its window, and never the wall clock', () => {
  let now = 0;
  const breaker = new RenderPathBreaker(CRASHES_TO_SWITCH_OFF, 60_000, () => now);
  const build = 'HeadlessChrome/156.0.8078.79';
  assert.equal(breaker.noteCrash(build, 'virtual-begin-frame'), undefined);
  now = 70_000; // the first crash is forgotten
  assert.equal(breaker.noteCrash(build, 'virtual-begin-frame'), undefined);
  assert.equal(breaker.noteCrash(build, 'virtual-begin-frame'), undefined);
  assert.equal(breaker.reasonOff(build, 'virtual-begin-frame'), undefined);
  const reason = breaker.noteCrash(build, 'virtual-begin-frame');
  assert.match(reason!, /3 browser crashes/);
  assert.equal(breaker.reasonOff(build, 'virtual-begin-frame'), reason);
  assert.equal(breaker.noteCrash(build, 'virtual-begin-frame'), undefined, 'reported once');
  assert.equal(breaker.reasonOff('HeadlessChrome/147.0.7727.0', 'virtual-begin-frame'), undefined, 'another build keeps it');
  for (let i = 0; i < 5; i++) assert.equal(breaker.noteCrash(build, 'real'), undefined);
  assert.equal(breaker.reasonOff(build, 'real'), undefined);
});

/** A page source whose pages crash as `crashes` says, in order ('none': prints a PDF). */
function crashingSource(crashes: ('browser' | 'page' | 'none')[]): PageSource & { acquired: number; released: boolean[] } {
  const source = {
    acquired: 0,
    released: [] as boolean[],
    version: 'Fake/1',
    restarts: 0,
    renderPath: { mode: 'real' as const, reason: 'fake', disabled: [], probeMs: 0 },
    probe: async () => true,
    close: async () => undefined,
    async acquire() {
      const crash = crashes[source.acquired++] ?? 'none';
      const page = {
        emulateMedia: async () => undefined,
        clockNotes: () => [],
        load: async () => {
          if (crash !== 'none') throw new RendererCrashedError(`${crash} crashed`, crash);
          return {};
        },
        print: async () => {
          const pdf = await PDFDocument.create();
          pdf.addPage();
          return pdf.save();
        },
      };
      return { page: page as unknown as CdpPage, release: async (reusable: boolean) => void source.released.push(reusable) };
    },
  };
  return source;
}

const job = { source: { kind: 'html' as const, html: '<p>x</p>' }, options: { ...DEFAULT_PDF_OPTIONS, wait_until: 'load' as const } };
const limits = { concurrency: 1, queueSize: 1, queueTimeoutMs: 1000 };

test('a render whose browser crashed under it is tried once more, on a fresh page, and succeeds', async () => {
  const source = crashingSource(['browser']);
  const retries: string[] = [];
  const renderer = new Renderer(source, limits, { onRetry: (scope) => retries.push(scope) });
  const pdf = await renderer.render(job);
  assert.equal(Buffer.from(pdf.subarray(0, 5)).toString(), '%PDF-');
  assert.equal(source.acquired, 2);
  assert.deepEqual(retries, ['browser']);
  assert.deepEqual(source.released, [false, true], 'the crashed page is not reused');
  assert.equal(renderer.stats().busy, 0, 'the slot is free again');
});

test('a page that crashes its renderer on both tries ends in PageCrashedError; one try more only', async () => {
  const source = crashingSource(['page', 'page', 'page']);
  const renderer = new Renderer(source, limits);
  await assert.rejects(renderer.render(job), PageCrashedError);
  assert.equal(source.acquired, 2);
  assert.equal(renderer.stats().busy, 0);
});

test('a browser crash then a page crash is not blamed on the page: RendererCrashedError (503, retry later)', async () => {
  const source = crashingSource(['browser', 'page']);
  await assert.rejects(new Renderer(source, limits).render(job), (error) => error instanceof RendererCrashedError && !(error instanceof PageCrashedError));
  assert.equal(source.acquired, 2);
});

test('an image gets the virtual clock only where its frame is drawn on request; a PDF gets the path as it is', () => {
  const modes: RenderPathMode[] = ['virtual-begin-frame', 'virtual-real-frames', 'real'];
  // Issue 40: on compositor frames a screenshot on the held clock could wait until the render's timeout.
  assert.deepEqual(
    modes.map((mode) => leaseMode(mode, 'capture')),
    ['virtual-begin-frame', 'real', 'real'],
  );
  assert.deepEqual(
    modes.map((mode) => leaseMode(mode, 'print')),
    modes,
  );
});
