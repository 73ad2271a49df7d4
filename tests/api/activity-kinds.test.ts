// Every kind of render reaches the Activity screen with a receipt like a render's (issue #30 item 3):
// office conversions and whole merges were neither listed nor given receipts. Each call's entry in
// GET /admin/v1/activity, its X-Render-Receipt and the receipt's facts (pages from the PDF, the
// files or sources, the options in force with the password masked), on success and on failure.
// test-lane: own-server (reads the server-wide Activity list).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument } from 'pdf-lib';
import { startTestServer, type TestServer } from '../helpers/start-app.ts';
import { officeTest } from '../helpers/needs-office.ts';
import { base64, odt } from '../helpers/office-fixtures.ts';

interface ActivityEntry {
  kind: string;
  source: string;
  status: string;
  code: string | null;
  pages: number | null;
  receipt_id: string | null;
}

interface ReceiptJson {
  id: string;
  kind: string;
  status: string;
  source: unknown;
  error: { code: string } | null;
  pages: { count: number; width_pt: number; height_pt: number };
  options: Record<string, unknown>;
  requests: unknown[];
  fonts: { named_by_page: unknown }[];
  warnings: string[];
}

async function recent(server: TestServer): Promise<ActivityEntry[]> {
  return ((await (await server.admin('GET', '/admin/v1/activity')).json()) as { recent: ActivityEntry[] }).recent;
}

async function receiptOf(server: TestServer, response: Response): Promise<ReceiptJson> {
  const path = response.headers.get('x-render-receipt');
  assert.ok(path, 'X-Render-Receipt names the receipt');
  const own = path.split(',')[0]!.trim();
  const answer = await server.request('GET', own);
  assert.equal(answer.status, 200);
  return (await answer.json()) as ReceiptJson;
}

async function twoPagePdf(): Promise<string> {
  const pdf = await PDFDocument.create();
  pdf.addPage([300, 400]);
  pdf.addPage([300, 400]);
  return Buffer.from(await pdf.save()).toString('base64');
}

test('a merge is listed in Activity as one merge with its own receipt', async (t) => {
  const server = await startTestServer(t);
  const response = await server.request('POST', '/v1/pdf/merge', {
    sources: [{ pdf: await twoPagePdf() }, { pdf: await twoPagePdf() }],
    options: { receipt: true },
  });
  assert.equal(response.status, 200, await response.clone().text());
  const receipt = await receiptOf(server, response);
  assert.equal(receipt.kind, 'merge');
  assert.equal(receipt.status, 'succeeded');
  assert.deepEqual(receipt.source, { type: 'merge', sources: 2 });
  assert.equal(receipt.pages.count, 4);
  assert.equal(receipt.options.receipt, true);
  assert.deepEqual(receipt.warnings, []);
  const entry = (await recent(server)).find((render) => render.receipt_id === receipt.id);
  assert.ok(entry, 'the merge is in the activity feed');
  assert.deepEqual([entry.kind, entry.source, entry.status, entry.pages], ['merge', 'merge', 'succeeded', 4]);
});

test('a merge without a receipt is still listed in Activity', async (t) => {
  const server = await startTestServer(t);
  const before = (await recent(server)).length;
  const response = await server.request('POST', '/v1/pdf/merge', { sources: [{ pdf: await twoPagePdf() }] });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('x-render-receipt'), null, 'the key keeps receipts of stored documents only');
  const entries = await recent(server);
  assert.equal(entries.length, before + 1);
  assert.deepEqual([entries[0]!.kind, entries[0]!.pages, entries[0]!.receipt_id], ['merge', 2, null]);
});

officeTest('office conversions are listed in Activity with a receipt, succeeded or failed', { timeout: 120_000 }, async (t) => {
  const server = await startTestServer(t);

  await t.test('a conversion: its files, the options in force (password masked), the pages of the PDF', async () => {
    const response = await server.request('POST', '/v1/convert/office', {
      file: base64(odt(['A letter', 'with two paragraphs'])),
      filename: 'letter.odt',
      options: { receipt: true, password: 'not-needed', landscape: true },
    });
    assert.equal(response.status, 200, await response.clone().text());
    const receipt = await receiptOf(server, response);
    assert.equal(receipt.kind, 'office');
    assert.equal(receipt.status, 'succeeded');
    assert.deepEqual(receipt.source, { type: 'office', filenames: ['letter.odt'] });
    assert.equal(receipt.options.password, '***', 'the password never reaches the receipt');
    assert.equal(receipt.options.landscape, true);
    assert.equal(receipt.options.timeout_ms, 30_000, 'defaults are filled in');
    assert.equal(receipt.pages.count, 1);
    assert.ok(receipt.pages.width_pt > receipt.pages.height_pt, `landscape: ${JSON.stringify(receipt.pages)}`);
    assert.deepEqual(receipt.requests, []);
    assert.deepEqual(receipt.warnings, []);
    assert.ok(
      receipt.fonts.every((font) => font.named_by_page === null),
      JSON.stringify(receipt.fonts),
    );
    const entry = (await recent(server)).find((render) => render.receipt_id === receipt.id);
    assert.ok(entry, 'the conversion is in the activity feed');
    assert.deepEqual([entry.kind, entry.source, entry.status, entry.pages], ['office', 'office', 'succeeded', 1]);
  });

  await t.test('a failed conversion is listed as failed, and its error answer names its receipt', async () => {
    const response = await server.request('POST', '/v1/convert/office', {
      file: base64(odt(['x'])),
      filename: 'letter.odt',
      options: { receipt: true, page_ranges: '5-9' },
    });
    assert.equal(response.status, 400);
    const receipt = await receiptOf(server, response);
    assert.equal(receipt.kind, 'office');
    assert.equal(receipt.status, 'failed');
    assert.equal(receipt.error?.code, 'invalid_request');
    const entry = (await recent(server)).find((render) => render.receipt_id === receipt.id);
    assert.deepEqual([entry?.kind, entry?.status, entry?.code], ['office', 'failed', 'invalid_request']);
  });
});
