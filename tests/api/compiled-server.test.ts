// What `npm start` and `npm run cli` run: the server built to plain JavaScript (scripts/build-server.ts),
// started with `node --enable-source-maps`, no TypeScript loader (tests/helpers/compiled-server.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { PDFDocument } from 'pdf-lib';
import { compiledServer, compiledServerEntry } from '../helpers/compiled-server.ts';
import { REPO_ROOT, startServerProcess } from '../helpers/server-process.ts';
import { startTestDatabase } from '../helpers/postgres.ts';
import { inspectPdf } from '../helpers/pdf.ts';

const run = promisify(execFile);

test('the compiled server starts with plain node, issues a key, renders and finishes a PDF', { timeout: 120_000 }, async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-compiled-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const adminToken = `adm_compiled_${process.pid}_0123456789`;
  // No LibreOffice pool: its processes outlive a SIGKILLed server and hold the test's pipes open
  // (tests/api/office.test.ts covers office conversion).
  const server = await startServerProcess({ DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, OFFICE_PATH: '/nonexistent/soffice' }, await compiledServerEntry());
  t.after(() => server.crash());

  const created = await fetch(`${server.url}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'compiled', plan: 'business' }),
  });
  assert.equal(created.status, 201);
  const { key } = (await created.json()) as { key: string };
  // A watermark sends the PDF through the worker thread (pdf-worker.mjs beside main.mjs).
  const rendered = await fetch(`${server.url}/v1/pdf`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ html: '<h1>Compiled</h1>', options: { wait_until: 'load', watermark: { text: 'DRAFT' } } }),
  });
  assert.equal(rendered.status, 200, await rendered.clone().text());
  const pdf = await inspectPdf(await rendered.arrayBuffer());
  assert.match(pdf.text, /Compiled/);
  assert.match(pdf.text, /DRAFT/);
  assert.equal((await fetch(`${server.url}/openapi.json`)).status, 200);
});

test('the compiled PDF worker answers a task on its own thread', { timeout: 60_000 }, async () => {
  const out = await compiledServer();
  const source = await PDFDocument.create();
  source.addPage([200, 200]);
  const bytes = await source.save();
  const worker = new Worker(path.join(out, 'pdf-worker.mjs'));
  try {
    const reply = await new Promise<{ id: number; value?: Uint8Array; error?: unknown }>((resolve, reject) => {
      // The thread first says it has loaded (worker-pool.ts); the task's answer carries its id.
      worker.on('message', (message: { id?: number }) => {
        if (message.id === 7) resolve(message as { id: number });
      });
      worker.once('error', reject);
      worker.postMessage({ id: 7, task: { kind: 'finish', pdf: bytes, options: { metadata: { title: 'From the worker' } } } });
    });
    assert.equal(reply.id, 7);
    assert.ok(reply.value, `the worker answered ${JSON.stringify(reply.error)}`);
    assert.equal((await PDFDocument.load(reply.value)).getTitle(), 'From the worker');
  } finally {
    await worker.terminate();
  }
});

test('the compiled CLI migrates PostgreSQL from the package and prints a key alone', { timeout: 120_000 }, async (t) => {
  const out = await compiledServer();
  const database = await startTestDatabase(t);
  const { stdout } = await run(
    process.execPath,
    ['--enable-source-maps', path.join(out, 'cli.mjs'), 'keys', 'create', '--name', 'compiled', '--plan', 'starter'],
    {
      cwd: os.tmpdir(),
      env: { ...process.env, DATABASE_URL: database.url },
    },
  );
  assert.match(stdout, /^sk_live_\S+\n$/);
});

test('the bundles carry source maps back to the TypeScript', async () => {
  const out = await compiledServer();
  for (const bundle of ['main', 'cli', 'pdf-worker']) {
    const map = JSON.parse(await readFile(path.join(out, `${bundle}.mjs.map`), 'utf8')) as { sources: string[] };
    const sources = map.sources.map((source) => path.resolve(out, source));
    assert.ok(sources.includes(path.join(REPO_ROOT, 'server', 'src', bundle === 'pdf-worker' ? 'pdf/pdf-worker.ts' : `${bundle}.ts`)), bundle);
  }
});
