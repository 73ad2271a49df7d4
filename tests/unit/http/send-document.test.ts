// Fetching a stored document (issue 11): a filename stored before lone surrogates were refused
// still gets a Content-Disposition (U+FFFD in their place) instead of a 500, and the open file is
// closed whatever happens, so no fetch leaks a file descriptor.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { sendDocument } from '../../../server/src/http/routes/documents.ts';
import type { StoredDocument } from '../../../server/src/stores/document-record.ts';

test('a stored filename with a lone surrogate is served with U+FFFD, and the file is closed', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-send-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const pdfPath = path.join(dir, 'doc.pdf');
  await writeFile(pdfPath, '%PDF-1.7 test');
  const file = await open(pdfPath, 'r');
  const document = { id: 'doc_test', filename: '\ud800.pdf', size: 13 } as unknown as StoredDocument;
  const app = express();
  app.get('/', (_req, res) => void sendDocument(res, { document, file }));
  const server = app.listen(0, '127.0.0.1');
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  await new Promise((resolve) => server.once('listening', resolve));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  assert.equal(response.status, 200);
  assert.equal(await response.text(), '%PDF-1.7 test');
  assert.match(response.headers.get('content-disposition') ?? '', /filename\*=UTF-8''%EF%BF%BD\.pdf/);
  // The close follows the last byte asynchronously (a thread-pool call): wait for it, 5 s at most (a safety net, not a timing).
  for (let waited = 0; file.fd !== -1 && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(file.fd, -1, 'the file handle was closed');
});
