// Two real server processes on one PostgreSQL (issue 13): assets, versions and visual checks across
// instances, the CLI on DATABASE_URL beside them, and a batch or webhook whose instance is killed
// (SIGKILL) taken over by the other.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServerProcess } from '../helpers/server-process.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inspectPdf } from '../helpers/pdf.ts';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../helpers/server-process.ts';
import { ADMIN_TOKEN, HTML, startSeveralInstances } from '../helpers/several-instances.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { watchLogs } from '../helpers/instance-logs.ts';

const { database, plansFile, hooks, receiver, SETTINGS, instances, issueKey } = await startSeveralInstances();

test('an asset uploaded and a version saved through one instance are used through the other', { timeout: 120_000 }, async () => {
  const key = await issueKey('business');
  const created = await instances.callOn(0, 'POST', '/v1/templates', key.key, { name: 'styled', html: '<link rel="stylesheet" href="site.css"><p>Body</p>' });
  const { template_id } = (await created.json()) as { template_id: string };
  const css = 'p::after { content: " and text from the shared stylesheet"; }';
  const put = await fetch(`${instances.servers[0]!.url}/v1/templates/${template_id}/assets/site.css`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${key.key}`, 'content-type': 'text/css' },
    body: css,
  });
  assert.equal(put.status, 200);
  const rendered = await instances.callOn(1, 'POST', '/v1/pdf', key.key, { template_id, options: { wait_until: 'load' } });
  assert.equal(rendered.status, 200);
  assert.match((await inspectPdf(await rendered.arrayBuffer())).text, /text from the shared stylesheet/);
  assert.equal((await instances.callOn(1, 'PUT', `/v1/templates/${template_id}`, key.key, { name: 'styled', html: '<p>Second</p>' })).status, 200);
  const versions = (await (await instances.callOn(0, 'GET', `/v1/templates/${template_id}/versions`, key.key)).json()) as { data: { version: number }[] };
  assert.deepEqual(
    versions.data.map((entry) => entry.version),
    [2, 1],
  );
});

test('a visual check through one instance right after a save through the other compares with the reference the saving instance makes', {
  timeout: 120_000,
}, async () => {
  const key = await issueKey('business');
  const created = await instances.callOn(0, 'POST', '/v1/templates', key.key, { name: 'checked', html: '<h1>Checked</h1>', sample_data: {} });
  const { template_id } = (await created.json()) as { template_id: string };
  // The save makes version 2, whose reference instance 0 renders right after answering: a page
  // of 20,000 positioned marks takes long enough to print that the check arrives meanwhile.
  const marks = Array.from({ length: 20_000 }, (_, i) => `<i style="position:absolute;left:${(i * 7) % 600}px;top:${(i * 13) % 900}px">.</i>`).join('');
  const html = `<h1>Checked again</h1><div style="position:relative">${marks}</div>`;
  assert.equal((await instances.callOn(0, 'PUT', `/v1/templates/${template_id}`, key.key, { name: 'checked', html })).status, 200);
  const check = await instances.callOn(1, 'POST', `/admin/v1/templates/${template_id}/check`, ADMIN_TOKEN, {});
  assert.equal(check.status, 200);
  const verdict = (await check.json()) as { template_version: number; verdict: string };
  assert.deepEqual({ version: verdict.template_version, verdict: verdict.verdict }, { version: 2, verdict: 'unchanged' });
});

test('the CLI on DATABASE_URL writes keys to PostgreSQL directly, beside running instances (no DATA_DIR lock, no admin API)', {
  timeout: 120_000,
}, async () => {
  // Instance 0 holds the lock on this DATA_DIR; no ADMIN_TOKEN is given to the CLI.
  const env = { ...process.env, DATABASE_URL: database.url, DATA_DIR: instances.dataDirs[0]!, PLANS_FILE: plansFile, ADMIN_TOKEN: '' };
  const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'cli', '--', 'keys', 'create', '--name', 'from the cli', '--plan', 'business'], {
    cwd: REPO_ROOT,
    env,
  });
  const key = stdout.trim();
  assert.match(key, /^sk_live_/);
  for (const instance of [0, 1]) {
    assert.equal((await instances.callOn(instance, 'POST', '/v1/pdf', key, HTML('cli key'))).status, 200);
    // Newest first, paged in SQL: the key just made heads the first page on either instance.
    const page = (await (await instances.callOn(instance, 'GET', '/admin/v1/keys?limit=1', ADMIN_TOKEN)).json()) as {
      data: { name: string; usage: { used: number } }[];
      next_cursor: string | null;
    };
    assert.equal(page.data[0]?.name, 'from the cli');
    assert.equal(page.data[0]?.usage.used, instance + 1);
    assert.notEqual(page.next_cursor, null);
  }
});

interface BatchWire {
  status: string;
  succeeded: number;
  failed: number;
  results: { index: number; status: string; document_id?: string }[];
}

test('a batch whose instance is killed (SIGKILL) mid-batch is taken over by another: every item ends once, each charged once, each document written once', {
  timeout: 300_000,
}, async (t) => {
  const key = await issueKey('business');
  // A third instance, killed during the test: the two others stay up for the rest of the file.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-instance-killed-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const doomed = await startServerProcess({ DATABASE_URL: database.url, DATA_DIR: dataDir, ...SETTINGS });
  t.after(() => doomed.crash());
  watchLogs(doomed, 'the instance killed');
  const ITEMS = 12;
  // Each item waits a second in its page, so the kill finds items rendering and others queued.
  const requests = Array.from({ length: ITEMS }, (_, i) => ({ html: `<h1>Handed over ${i}</h1>`, options: { wait_until: 'load', wait_ms: 1000 } }));
  const created = await fetch(`${doomed.url}/v1/pdf/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ requests, async: true }),
  });
  assert.equal(created.status, 202, await created.clone().text());
  const { batch_id } = (await created.json()) as { batch_id: string };
  const read = async (instance: number) => (await (await instances.callOn(instance, 'GET', `/v1/pdf/batch/${batch_id}`, key.key)).json()) as BatchWire;
  // Seen through another instance: the batch is shared. Killed once its first item succeeded.
  await waitFor(async () => (await read(1)).succeeded > 0, 'the first item to succeed', 120_000);
  await doomed.crash();
  const killedAt = Date.now();
  let batch = await read(0);
  await waitFor(
    async () => {
      batch = await read(0);
      return batch.status === 'completed';
    },
    'the batch to complete on the other instance',
    120_000,
  );
  t.diagnostic(`completed ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill (lease 2 s, adoption tick 0.7 s)`);
  assert.deepEqual(
    batch.results.map((item) => item.status),
    Array(ITEMS).fill('succeeded'),
  );
  const documentIds = batch.results.map((item) => item.document_id!);
  assert.equal(new Set(documentIds).size, ITEMS);
  // Charged once per item, and exactly one document per item, whichever instance rendered it.
  const usage = (await (await instances.callOn(1, 'GET', `/admin/v1/keys/${key.id}`, ADMIN_TOKEN)).json()) as { usage: { used: number } };
  assert.equal(usage.usage.used, ITEMS);
  const listed = (await (await instances.callOn(1, 'GET', '/v1/documents?limit=100', key.key)).json()) as { data: { id: string }[] };
  assert.deepEqual(listed.data.map((document) => document.id).sort(), [...documentIds].sort());
  const last = await instances.callOn(0, 'GET', `/v1/documents/${documentIds[ITEMS - 1]}`, key.key);
  assert.match((await inspectPdf(await last.arrayBuffer())).text, new RegExp(`Handed over ${ITEMS - 1}`));
});

test('a webhook whose instance is killed (SIGKILL) mid-delivery is delivered by another, with the same webhook-id', { timeout: 300_000 }, async (t) => {
  const key = await issueKey('business');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-instance-killed-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const doomed = await startServerProcess({ DATABASE_URL: database.url, DATA_DIR: dataDir, ...SETTINGS });
  t.after(() => doomed.crash());
  watchLogs(doomed, 'the instance killed');
  const body = { requests: [{ html: '<h1>hooked</h1>', options: { wait_until: 'load' } }], webhook_url: `http://127.0.0.1:${receiver.port}/hook` };
  const created = await fetch(`${doomed.url}/v1/pdf/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(created.status, 200, await created.clone().text());
  const { batch_id } = (await created.json()) as { batch_id: string };
  // The first try reached the receiver, which holds it unanswered: the sender dies mid-delivery.
  await waitFor(() => hooks.length > 0, 'the first delivery to reach the receiver', 120_000).catch(async (error: Error) => {
    // Seen once in a loaded run: nothing reached the receiver in 120 s, and no instance logged why.
    // The batch as the service sees it says where it stopped (its items, its webhook).
    const seen = await instances.callOn(0, 'GET', `/admin/v1/batches/${batch_id}`, ADMIN_TOKEN).then((response) => response.text(), String);
    throw new Error(`${error.message}; the batch then: ${seen.slice(0, 3000)}`);
  });
  await doomed.crash();
  const readAdmin = async () =>
    (await (await instances.callOn(0, 'GET', `/admin/v1/batches/${batch_id}`, ADMIN_TOKEN)).json()) as {
      webhook_status: string;
      deliveries: { ok: boolean }[];
    };
  let admin = await readAdmin();
  await waitFor(
    async () => {
      admin = await readAdmin();
      return admin.webhook_status === 'delivered';
    },
    'another instance to deliver the webhook',
    120_000,
  );
  assert.equal(hooks.length, 2);
  assert.equal(hooks[1]!.id, hooks[0]!.id, 'the same message: receivers can drop a repeat');
  assert.deepEqual(
    admin.deliveries.map((delivery) => delivery.ok),
    [true],
    "the try cut by the kill was never recorded; the adopter's is",
  );
});
