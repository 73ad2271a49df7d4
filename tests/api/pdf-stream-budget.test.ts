// Issue 39 item 2: every route that reads a caller's PDF applies the same stream budget
// (pdf/stream-budget.ts) before any tool or parser unpacks it. The server runs with a 64 KB budget
// (PDF_STREAM_MAX_BYTES, PDF_STREAMS_MAX_BYTES) so a 1 MB Flate-in-Flate bomb of about 1 KB is
// enough, and a stored document rendered here (its fonts and content unpack past 64 KB) stands in
// for a stored bomb. Each entry point answers 413 payload_too_large naming the input, uncharged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errorOf, startTestServer, usageOf } from '../helpers/start-app.ts';
import { streamBomb } from '../helpers/pdf-bombs.ts';
import { type BatchJson, waitForBatch } from '../helpers/batches.ts';
import { waitFor } from '../helpers/wait-for.ts';

const BUDGET = 64 * 1024;
const BOMB = Buffer.from(streamBomb(1, ['FlateDecode', 'FlateDecode'])).toString('base64');
const REFUSED = /unpacks? to more than 64 KB.*\(a decompression bomb\?\)/;

test('every PDF input meets the one stream budget: 413 before any tool unpacks it, nothing charged', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-budget-hot-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const server = await startTestServer(t, { pdfStreamMaxBytes: BUDGET, pdfStreamsMaxBytes: BUDGET, watchDir: dir }, { hotFolderIntervalMs: 100 });
  const stored = await server.render({ html: `<p>${'Quire budget. '.repeat(20_000)}</p>`, options: { wait_until: 'load' }, store: true });
  assert.equal(stored.status, 200);
  const documentId = stored.headers.get('x-document-id')!;
  const before = await usageOf(server);

  const refusals: [string, string, unknown, RegExp][] = [
    ['merge of an upload made archival (the issue’s 500)', '/v1/pdf/merge', { sources: [{ pdf: BOMB }], options: { pdf_a: 'PDF/A-2b' } }, /sources\[0\]\.pdf/],
    ['merge of an upload under a header and footer', '/v1/pdf/merge', { sources: [{ pdf: BOMB }], options: { header: 'Page {{page}}' } }, /sources\[0\]\.pdf/],
    ['merge of a stored document', '/v1/pdf/merge', { sources: [{ html: '<p>a</p>' }, { document_id: documentId }] }, /sources\[1\]\.document_id/],
    ['transform (toolbox steps)', '/v1/pdf/transform', { pdf: BOMB, steps: [{ op: 'compress' }] }, /^pdf /],
    ['transform with final steps', '/v1/pdf/transform', { pdf: BOMB, steps: [{ op: 'rotate', angle: 90 }], options: { pdf_a: 'PDF/A-2b' } }, /^pdf /],
    ['transform of a stored document', '/v1/pdf/transform', { document_id: documentId, steps: [{ op: 'flatten' }] }, /^document_id /],
    ['verify', '/v1/pdf/verify', { pdf: BOMB }, /^pdf /],
    ['inspect', '/v1/pdf/inspect', { pdf: BOMB }, /^pdf /],
    ['images', '/v1/pdf/images', { pdf: BOMB }, /^pdf /],
  ];
  for (const [name, route, body, names] of refusals) {
    const refused = await errorOf(await server.request('POST', route, body));
    assert.deepEqual([refused.status, refused.code], [413, 'payload_too_large'], `${name}: ${refused.detail}`);
    assert.match(refused.detail, REFUSED, name);
    assert.match(refused.detail, names, name);
  }
  const admin = await errorOf(await server.admin('POST', '/admin/v1/pdf/transform', { pdf: BOMB, steps: [{ op: 'flatten' }] }));
  assert.deepEqual([admin.status, admin.code], [413, 'payload_too_large'], `admin transform: ${admin.detail}`);

  // A batch item fails alone with the same code.
  const posted = (await (
    await server.request('POST', '/v1/pdf/batch', { requests: [{ transform: { pdf: BOMB, steps: [{ op: 'flatten' }] } }], async: true })
  ).json()) as BatchJson;
  const batch = await waitForBatch(server, posted.batch_id);
  assert.equal(batch.results[0]!.error?.code, 'payload_too_large');
  assert.match(batch.results[0]!.error!.detail, REFUSED);

  // The hot folder: the bomb lands in failed/ with the same code.
  await writeFile(path.join(dir, 'settings.json'), JSON.stringify({ key_id: server.key.id, pdf: { steps: [{ op: 'flatten' }] } }));
  await writeFile(path.join(dir, 'in', 'bomb.pdf'), Buffer.from(BOMB, 'base64'));
  const failed = path.join(dir, 'failed', 'bomb.json');
  await waitFor(() => existsSync(failed), 'failed/bomb.json', 60_000);
  const hot = JSON.parse(await readFile(failed, 'utf8')) as { code: string; detail: string };
  assert.equal(hot.code, 'payload_too_large');
  assert.match(hot.detail, REFUSED);

  assert.equal(await usageOf(server), before, 'nothing refused was charged');
});
