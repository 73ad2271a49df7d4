// A newcomer's `npm start` on a machine whose own Node is too old (Node 20 first on
// PATH, as on CI's machines): npm runs the server on Node 24 through scripts/supported-node.sh, and
// the server works whole. On Node 20 it used to serve with a batch store that failed every item
// (Promise.withResolvers), so a batch item is the check, beside a render (issue 40).

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { OLD_SYSTEM_NODE, withPathFirst } from '../helpers/old-node.ts';
import { pageTexts } from '../helpers/pdf-cli.ts';
import { startServerProcess } from '../helpers/server-process.ts';

const ADMIN_TOKEN = 'adm_newcomer_test_token_0123456789';

test(`npm start with the machine's old Node first on PATH serves renders and batches${OLD_SYSTEM_NODE ? '' : ' (skipped: needs a Node older than 22 at /usr/bin/node)'}`, {
  skip: !OLD_SYSTEM_NODE,
}, async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-newcomer-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const env = withPathFirst('/usr/bin') as Record<string, string>;
  const server = await startServerProcess({ ...env, DATA_DIR: dataDir, ADMIN_TOKEN }, ['start'], 'npm');
  t.after(async () => {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    process.kill(-server.child.pid!, 'SIGTERM');
    await exited;
  });
  const call = (route: string, token: string, body: unknown) =>
    fetch(server.url + route, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });

  const health = (await (await fetch(`${server.url}/health`)).json()) as { status: string };
  assert.equal(health.status, 'ok');
  const key = ((await (await call('/admin/v1/keys', ADMIN_TOKEN, { name: 'newcomer', plan: 'starter' })).json()) as { key: string }).key;

  const render = await call('/v1/pdf', key, { html: '<p>first render</p>' });
  assert.equal(render.status, 200);
  assert.match((await pageTexts(Buffer.from(await render.arrayBuffer())))[0]!, /first render/);

  const batch = await call('/v1/pdf/batch', key, { requests: [{ html: '<p>batch item</p>', filename: 'item.pdf' }] });
  assert.equal(batch.status, 200);
  const results = ((await batch.json()) as { results: { status: string; error?: unknown }[] }).results;
  assert.deepEqual(
    results.map((result) => [result.status, result.error]),
    [['succeeded', undefined]],
  );
});
