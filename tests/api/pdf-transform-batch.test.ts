// Transforms beyond the route (issue 33): a batch item that is a transform (its own steps or a
// preset's), kept under the item's document and charged once; refused before anything is kept or
// charged when it would split; receipts that record each step with its time and bytes (the same
// records X-Pdf-Steps shows); a decompression bomb refused with 413 and never charged. Results
// are read with pdfinfo and pdftotext.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, startTestServer, usageOf } from '../helpers/start-app.ts';
import { HOSTILE_PDFS, pageRotations, pageTexts, textPdf } from '../helpers/pdf-cli.ts';

const b64 = (pdf: Uint8Array) => Buffer.from(pdf).toString('base64');
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

interface BatchJson {
  status: string;
  results: { index: number; status: string; document_id?: string; receipt?: string; error?: { code: string; detail: string } }[];
}
interface ReceiptJson {
  kind: string;
  source: { type: string; preset_id?: string };
  steps: { step: string; ms: number; bytes_before: number; bytes_after: number; report: { pages?: number } | null }[];
}

test('transforms in batches and receipts', async (t) => {
  const server = await startTestServer(t);
  const three = await textPdf(['Page 1', 'Page 2', 'Page 3']);

  await t.test('a batch takes transform items (steps, or a preset), each kept and charged once', async () => {
    const preset = await server.request('POST', '/v1/pdf/presets', {
      name: 'Last page turned',
      steps: [
        { op: 'select', pages: '3' },
        { op: 'rotate', angle: 90 },
      ],
    });
    assert.equal(preset.status, 201, await preset.clone().text());
    const { id: presetId } = (await preset.json()) as { id: string };
    const before = await usageOf(server);
    const response = await server.request('POST', '/v1/pdf/batch', {
      requests: [
        { transform: { pdf: b64(three), steps: [{ op: 'reorder', order: '3, 1-2' }], options: { receipt: true } }, filename: 'reordered.pdf' },
        { transform: { pdf: b64(three), preset_id: presetId } },
      ],
    });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    const batch = JSON.parse(text) as BatchJson;
    assert.deepEqual(
      batch.results.map((result) => result.status),
      ['succeeded', 'succeeded'],
      text,
    );
    assert.equal(await usageOf(server), before + 2, 'one document per item');
    const first = await server.request('GET', `/v1/documents/${batch.results[0]!.document_id}`);
    const reordered = await bytesOf(first);
    assert.deepEqual(pageTexts(reordered), ['Page 3', 'Page 1', 'Page 2']);
    const second = await bytesOf(await server.request('GET', `/v1/documents/${batch.results[1]!.document_id}`));
    assert.deepEqual(pageTexts(second), ['Page 3']);
    assert.deepEqual(pageRotations(second), [90]);
    // The item's receipt (options.receipt) records its step like the route's X-Pdf-Steps.
    assert.ok(batch.results[0]!.receipt, 'the item names its receipt');
    const receipt = (await (await server.request('GET', batch.results[0]!.receipt!)).json()) as ReceiptJson;
    assert.equal(receipt.kind, 'batch_item');
    assert.equal(receipt.source.type, 'pdf');
    assert.equal(receipt.steps[0]?.step, 'reorder');
    assert.equal(receipt.steps[0]?.report?.pages, 3);
    assert.ok(receipt.steps[0]!.bytes_before > 0 && receipt.steps[0]!.bytes_after > 0);
  });

  await t.test('a transform item that splits, or runs a preset that splits, refuses the whole batch before anything is charged', async () => {
    const before = await usageOf(server);
    const given = await errorOf(
      await server.request('POST', '/v1/pdf/batch', { requests: [{ transform: { pdf: b64(three), steps: [{ op: 'split', every: 1 }] } }] }),
    );
    assert.deepEqual([given.status, given.code], [400, 'invalid_request']);
    assert.match(given.detail, /requests\[0\]\.transform\.steps/);
    const preset = (await (await server.request('POST', '/v1/pdf/presets', { name: 'Cut', steps: [{ op: 'split', every: 1 }] })).json()) as { id: string };
    const byPreset = await errorOf(
      await server.request('POST', '/v1/pdf/batch', { requests: [{ html: '<p>x</p>' }, { transform: { pdf: b64(three), preset_id: preset.id } }] }),
    );
    assert.deepEqual([byPreset.status, byPreset.code], [400, 'invalid_request']);
    assert.match(byPreset.detail, /requests\[1\]\.transform\.preset_id/);
    const withOptions = await errorOf(
      await server.request('POST', '/v1/pdf/batch', { requests: [{ transform: { pdf: b64(three), steps: [{ op: 'flatten' }] }, options: { scale: 1 } }] }),
    );
    assert.match(withOptions.detail, /requests\[0\]\.options.*transform\.options/);
    assert.equal(await usageOf(server), before, 'nothing charged');
  });

  await t.test('a transform item whose PDF is hostile fails alone, uncharged', async () => {
    const before = await usageOf(server);
    const response = await server.request('POST', '/v1/pdf/batch', {
      requests: [{ transform: { pdf: b64(HOSTILE_PDFS.garbage()), steps: [{ op: 'flatten' }] } }, { html: '<p>fine</p>' }],
    });
    const batch = (await response.json()) as BatchJson;
    assert.deepEqual(
      batch.results.map((result) => [result.status, result.error?.code]),
      [
        ['failed', 'pdf_unreadable'],
        ['succeeded', undefined],
      ],
    );
    assert.match(batch.results[0]!.error!.detail, /transform\.pdf/);
    assert.equal(await usageOf(server), before + 1, 'only the render was charged');
  });

  await t.test('the route’s receipt records each step with its time and bytes, as X-Pdf-Steps does', async () => {
    const response = await server.request('POST', '/v1/pdf/transform', {
      pdf: b64(three),
      steps: [
        { op: 'delete', pages: '2' },
        { op: 'rotate', angle: 180 },
      ],
      options: { receipt: true },
    });
    assert.equal(response.status, 200, await response.clone().text());
    const header = JSON.parse(response.headers.get('x-pdf-steps')!) as { op: string; ms: number; bytes_before: number; bytes_after: number }[];
    const receiptPath = response.headers.get('x-render-receipt');
    assert.ok(receiptPath, 'X-Render-Receipt names the receipt');
    const receipt = (await (await server.request('GET', receiptPath)).json()) as ReceiptJson;
    assert.equal(receipt.kind, 'transform');
    assert.deepEqual(
      receipt.steps.map((step) => [step.step, step.ms, step.bytes_before, step.bytes_after]),
      header.map((step) => [step.op, step.ms, step.bytes_before, step.bytes_after]),
      'one source of step timings',
    );
    assert.deepEqual(pageRotations(await bytesOf(response)), [180, 180]);
  });

  await t.test('a decompression bomb is refused with 413 before any tool unpacks it, and not charged', async () => {
    const before = await usageOf(server);
    const refused = await errorOf(
      await server.request('POST', '/v1/pdf/transform', { pdf: b64(HOSTILE_PDFS.decompressionBomb()), steps: [{ op: 'compress' }] }),
    );
    assert.deepEqual([refused.status, refused.code], [413, 'payload_too_large']);
    assert.match(refused.detail, /unpacks to more than 512 MB/);
    assert.equal(await usageOf(server), before);
  });
});
