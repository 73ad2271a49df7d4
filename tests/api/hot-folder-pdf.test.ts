// The hot folder takes PDFs (issue 33): a name.pdf dropped into in/ goes through the transform of
// WATCH_DIR/settings.json's "pdf" entry and lands in out/, charged once (read back with pdfinfo,
// pdftotext and qpdf --json); without that entry a PDF is refused with an error file as before; a
// bad entry is reported as any bad setting (files wait in in/); a hostile PDF fails alone, uncharged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, usageOf } from '../helpers/start-app.ts';
import { HOSTILE_PDFS, pageRotations, pageTexts, textPdf } from '../helpers/pdf-cli.ts';
import { appears } from '../helpers/wait-for.ts';

/** Each page's /Rotate as qpdf --json reports it (JSON v2: the page list, and the objects under "qpdf"). */
function qpdfRotations(file: string): number[] {
  const json = JSON.parse(execFileSync('qpdf', ['--json', '--json-key=pages', '--json-key=qpdf', file], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })) as {
    pages: { object: string }[];
    qpdf: [unknown, Record<string, { value?: { '/Rotate'?: number } }>];
  };
  return json.pages.map((page) => json.qpdf[1][`obj:${page.object}`]?.value?.['/Rotate'] ?? 0);
}

test('a PDF dropped into in/ goes through the transform of settings.json and is charged once; a hostile one fails alone, uncharged', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-hot-pdf-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const server = await startTestServer(t, { watchDir: dir }, { hotFolderIntervalMs: 100 });
  const settings = (extra: Record<string, unknown>) => writeFile(path.join(dir, 'settings.json'), JSON.stringify({ key_id: server.key.id, ...extra }));
  // A failure writes its error file, then moves the input beside it (queue/hot-folder.ts fail()): over once both are there.
  const failure = async (name: string) => {
    await appears(path.join(dir, 'failed', `${name}.json`));
    await appears(path.join(dir, 'failed', `${name}.pdf`));
    return JSON.parse(await readFile(path.join(dir, 'failed', `${name}.json`), 'utf8')) as { code: string; detail: string; file: string };
  };
  const three = await textPdf(['Page one', 'Page two', 'Page three']);
  const before = await usageOf(server);

  // No pdf entry: refused as today, with an error file saying how to take PDFs.
  await settings({});
  await writeFile(path.join(dir, 'in', 'plain.pdf'), three);
  const plain = await failure('plain');
  assert.equal(plain.code, 'invalid_request');
  assert.match(plain.detail, /plain\.pdf: the hot folder takes .*name\.pdf once settings\.json has a "pdf" entry/);

  // A bad pdf entry is a bad setting: files wait in in/ (never failed) until it is fixed.
  await settings({ pdf: { steps: [{ op: 'rotate', angle: 45 }] } });
  await writeFile(path.join(dir, 'in', 'report.pdf'), three);
  await writeFile(path.join(dir, 'in', 'hostile.pdf'), HOSTILE_PDFS.imageBomb());
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.deepEqual((await readdir(path.join(dir, 'in'))).sort(), ['hostile.pdf', 'report.pdf']);
  assert.deepEqual((await readdir(path.join(dir, 'failed'))).sort(), ['plain.json', 'plain.pdf']);

  await settings({
    pdf: {
      steps: [
        { op: 'rotate', angle: 90, pages: '1' },
        { op: 'delete', pages: '3' },
      ],
      options: { metadata: { title: 'Hot transform' } },
    },
  });
  const out = path.join(dir, 'out', 'report.pdf');
  await appears(out);
  const result = new Uint8Array(await readFile(out));
  assert.deepEqual(pageTexts(result), ['Page one', 'Page two']);
  assert.deepEqual(pageRotations(result), [90, 0]);
  assert.deepEqual(qpdfRotations(out), [90, 0]);
  assert.match(execFileSync('pdfinfo', [out], { encoding: 'utf8' }), /Title:\s+Hot transform/);

  const hostile = await failure('hostile');
  assert.equal(hostile.code, 'payload_too_large');
  assert.match(hostile.detail, /hostile|image/);
  assert.ok(!existsSync(path.join(dir, 'out', 'hostile.pdf')));
  assert.deepEqual(await readdir(path.join(dir, 'processing')), []);
  assert.equal((await usageOf(server)) - before, 1, 'the transformed PDF is charged once; the refused ones are not');
});
