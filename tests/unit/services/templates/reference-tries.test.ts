// The reference of a template version seen from another instance (services/templates/versions.ts,
// reference-tries.ts): a check compares with the reference the saving instance stores, also when
// it lands between the check's two looks, and when its render failed once under load and was
// tried again; a template that fails every time is given up at once; the maker's lease is renewed.
// Two services on one store stand for two instances on one PostgreSQL; the renderer is scripted
// (the real path: several-instances-takeover.test.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import pino from 'pino';
import { TemplateVersionsService, type TemplateVersionsDeps } from '../../../../server/src/services/templates/versions.ts';
import { REFERENCE_TRIES, underLease } from '../../../../server/src/services/templates/reference-tries.ts';
import { RenderInputError, RenderTimeoutError } from '../../../../server/src/render/errors.ts';
import type { TemplateVersion, TemplateVersionsStore } from '../../../../server/src/stores/template-versions.ts';
import type { Renderer } from '../../../../server/src/render/renderer.ts';

const VERSION: TemplateVersion = {
  templateId: 'tpl_checked',
  number: 2,
  name: 'checked',
  html: '<h1>Checked again</h1>',
  format: 'html',
  sampleData: {},
  createdAt: '2026-11-28T11:00:00.000Z',
  createdBy: 'key_a',
};

/** The reference columns of one version as PostgreSQL keeps them: marked as coming at append. */
function sharedStore() {
  const state = { reference: undefined as Uint8Array | undefined, coming: true };
  const store: Partial<TemplateVersionsStore> = {
    latest: async () => VERSION.number,
    readReference: async () => state.reference,
    isReferenceComing: async () => state.reference === undefined && state.coming,
    saveReference: async (_id, _number, pdf) => {
      state.reference = pdf;
    },
    renewReference: async () => undefined,
    abandonReference: async () => {
      state.coming = false;
    },
  };
  return { state, store: store as TemplateVersionsStore };
}

/** A renderer whose first `failures` renders throw `error`, then print the version's heading. */
function scriptedRenderer(failures: number, error: () => Error) {
  const calls = { count: 0 };
  const renderer = {
    async render() {
      calls.count++;
      if (calls.count <= failures) throw error();
      const pdf = await PDFDocument.create();
      const font = await pdf.embedFont(StandardFonts.Helvetica);
      pdf.addPage([300, 200]).drawText('Checked again', { x: 20, y: 150, size: 18, font });
      return pdf.save();
    },
  };
  return { calls, renderer: renderer as unknown as Renderer };
}

function instance(store: TemplateVersionsStore, renderer: Renderer, logs: { msg: string }[] = []) {
  const templates: TemplateVersionsDeps['templates'] = {
    visible: async () => ({}) as never,
    version: async () => VERSION,
    previewSource: async (_id, html) => ({ kind: 'html', html }),
  } as Partial<TemplateVersionsDeps['templates']> as TemplateVersionsDeps['templates'];
  const log = pino({ level: 'warn' }, { write: (line: string) => void logs.push(JSON.parse(line) as { msg: string }) });
  return new TemplateVersionsService({ store, templates, renderer, log });
}

const timeout = () => new RenderTimeoutError(30_000, 'printing');

test("a background reference render that timed out is tried again, and another instance's check waits for it and compares with it", async () => {
  const { state, store } = sharedStore();
  const saving = scriptedRenderer(1, timeout);
  const logs: { msg: string }[] = [];
  const saver = instance(store, saving.renderer, logs);
  const checker = instance(store, scriptedRenderer(0, timeout).renderer);
  saver.makeReference(VERSION);
  const result = await checker.check(VERSION.templateId);
  assert.deepEqual({ version: result.version, verdict: result.verdict, pages: result.pages }, { version: 2, verdict: 'unchanged', pages: 1 });
  assert.equal(saving.calls.count, 2, 'the saving instance rendered the reference twice: the timeout, then the reference');
  assert.ok(state.reference, 'stored by the saving instance');
  assert.deepEqual(
    logs.map((entry) => entry.msg),
    ['the reference render of a template version failed; trying again'],
  );
});

test("a reference stored between a check's read and its look at the mark is compared with, not replaced (what a loaded run lost)", async () => {
  const { store } = sharedStore();
  const saver = instance(store, scriptedRenderer(0, timeout).renderer);
  // The check reads (nothing yet), then the saving instance stores the reference and ends the
  // mark, then the check asks whether the reference is still coming: under load that order is common.
  const read = store.readReference.bind(store);
  let reads = 0;
  store.readReference = async (id, number) => {
    const stored = await read(id, number);
    if (++reads === 1) {
      saver.makeReference(VERSION);
      await saver.idle();
    }
    return stored;
  };
  const result = await instance(store, scriptedRenderer(0, timeout).renderer).check(VERSION.templateId);
  assert.deepEqual({ version: result.version, verdict: result.verdict }, { version: 2, verdict: 'unchanged' });
});

test('a reference render that fails every time under load is given up after its tries; the check then makes its own', async () => {
  const { state, store } = sharedStore();
  const saving = scriptedRenderer(Number.POSITIVE_INFINITY, timeout);
  const saver = instance(store, saving.renderer);
  saver.makeReference(VERSION);
  await saver.idle();
  assert.equal(saving.calls.count, REFERENCE_TRIES);
  assert.equal(state.coming, false, 'abandoned: nobody waits for it any more');
  const result = await instance(store, scriptedRenderer(0, timeout).renderer).check(VERSION.templateId);
  assert.equal(result.verdict, 'reference_created');
});

test('a template whose render fails on its input is not tried again', async () => {
  const { state, store } = sharedStore();
  const saving = scriptedRenderer(Number.POSITIVE_INFINITY, () => new RenderInputError('options.page_ranges', 'no such pages'));
  const saver = instance(store, saving.renderer);
  saver.makeReference(VERSION);
  await saver.idle();
  assert.equal(saving.calls.count, 1);
  assert.equal(state.coming, false);
});

test("the reference's maker renews its lease while it works", async () => {
  let renewals = 0;
  let renewedTwice: () => void = () => undefined;
  const twice = new Promise<void>((resolve) => {
    renewedTwice = resolve;
  });
  const result = await underLease(
    async () => {
      if (++renewals === 2) renewedTwice();
    },
    5,
    async () => {
      await twice;
      return 'made';
    },
  );
  assert.equal(result, 'made');
  assert.ok(renewals >= 2);
});
