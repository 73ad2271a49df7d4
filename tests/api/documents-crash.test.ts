// Crash safety of stored renders, against the real server process: kill -9 while stored renders
// are in flight leaves either complete documents (record and bytes) or nothing that is listed,
// and start-up removes what interrupted writes left behind.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { callServer, serverStarter, type ServerProcess } from '../helpers/server-process.ts';

const ADMIN_TOKEN = 'adm_crash_test_token_0123456789';

const call = callServer;

/** Fires stored renders from `workers` loops and kills the server with SIGKILL once `before` have been answered. */
async function renderUntilKilled(server: ServerProcess, key: string, before: number, workers = 4): Promise<string[]> {
  const answered: string[] = [];
  let killing: Promise<void> | undefined;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let n = 0; !killing; n++) {
        const html = `<h1>worker ${worker} render ${n}</h1>${'<p>filler text for a few pages</p>'.repeat(200)}`;
        const response = await call(server, 'POST', '/v1/pdf', key, { html, store: true, options: { wait_until: 'load' } }).catch(() => undefined);
        if (response?.status === 200) {
          await response.arrayBuffer().catch(() => undefined);
          answered.push(response.headers.get('x-document-id')!);
        }
        if (answered.length >= before) killing ??= server.crash();
      }
    }),
  );
  await killing;
  return answered;
}

async function listAll(server: ServerProcess, keyId: string): Promise<{ id: string; size: number }[]> {
  const all: { id: string; size: number }[] = [];
  let cursor: string | null = null;
  do {
    const response = await call(server, 'GET', `/admin/v1/documents?key_id=${keyId}&limit=7${cursor ? `&cursor=${cursor}` : ''}`, ADMIN_TOKEN);
    const page = (await response.json()) as { data: { id: string; size: number }[]; next_cursor: string | null };
    all.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return all;
}

test('kill -9 during stored renders leaves only complete documents, and start-up reconciles leftovers', { timeout: 240_000 }, async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-docs-crash-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const start = serverStarter(t, { DATA_DIR: dataDir, ADMIN_TOKEN });

  let server = await start();
  const issued = (await (await call(server, 'POST', '/admin/v1/keys', ADMIN_TOKEN, { name: 'crash', plan: 'starter', auto_store: true })).json()) as {
    id: string;
    key: string;
  };
  const folder = path.join(dataDir, 'documents', issued.id);
  const answered: string[] = [];

  for (let round = 0; round < 2; round++) {
    answered.push(...(await renderUntilKilled(server, issued.key, 5)));
    const deadPid = server.child.pid!;
    // What a kill at other moments leaves: bytes without a sidecar, a sidecar whose bytes never
    // landed, and half-written temporary files of the dead process.
    await writeFile(path.join(folder, `doc_orphanpdf${round}.pdf`), '%PDF-1.7 no sidecar');
    await writeFile(
      path.join(folder, `doc_orphanjson${round}.json`),
      JSON.stringify({
        id: `doc_orphanjson${round}`,
        keyId: issued.id,
        createdAt: new Date().toISOString(),
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        state: 'stored',
      }),
    );
    await writeFile(path.join(folder, `.doc_half${round}.pdf.${deadPid}-1.tmp`), '%PDF-1.7 half');

    server = await start();
    const reconciled = server.logs.find((entry) => entry.msg === 'removed leftovers of interrupted document writes');
    assert.ok(reconciled, 'start-up reports what it removed');
    assert.ok(
      (reconciled.removedOrphanPdfs as number) >= 1 && (reconciled.removedOrphanSidecars as number) >= 1 && (reconciled.removedTempFiles as number) >= 1,
    );

    const listed = await listAll(server, issued.id);
    const listedIds = listed.map((document) => document.id);
    for (const id of answered) assert.ok(listedIds.includes(id), `${id} was answered with 200 before the kill, so it is kept`);
    assert.equal(new Set(listedIds).size, listedIds.length, 'no document is listed twice');
    for (const document of listed) {
      const response = await call(server, 'GET', `/v1/documents/${document.id}`, issued.key);
      const bytes = Buffer.from(await response.arrayBuffer());
      assert.equal(response.status, 200, document.id);
      assert.equal(bytes.length, document.size, `${document.id} is complete`);
      assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');
      assert.match(bytes.subarray(-32).toString('latin1'), /%%EOF\s*$/);
    }
    const expectedFiles = listedIds.flatMap((id) => [`${id}.json`, `${id}.pdf`]).sort();
    assert.deepEqual((await readdir(folder)).sort(), expectedFiles, 'exactly the listed documents are on disk: no leftovers');
  }
  await server.crash();
});
