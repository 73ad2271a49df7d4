// The container image (Containerfile), built by scripts/image-build.sh before this lane runs
// (npm run test:image): started as an operator would, it renders HTML and converts a docx (read with
// pdfinfo and pdftotext), answers /health and its HEALTHCHECK, runs as an unprivileged user, and a
// SIGTERM stops it cleanly with batch items still queued, which complete after a restart, each
// charged once. Host networking on a loopback port: the only traffic the machine allows.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { docx, base64 } from '../helpers/office-fixtures.ts';
import { pageTexts, pdfInfo } from '../helpers/pdf-cli.ts';
import { waitFor } from '../helpers/wait-for.ts';
import type { BatchJson } from '../helpers/batches.ts';
import { freePort, PODMAN_LIMITS, podman, podmanMissing, run, PODMAN_GLOBAL } from '../helpers/podman.ts';

const IMAGE = process.env.QUIRE_TEST_IMAGE ?? 'localhost/quire:latest';
const missing = await podmanMissing();
const name = `quire-image-test-${process.pid}`;
const volume = `${name}-data`;
const adminToken = `adm_${randomBytes(16).toString('hex')}`;
let base = '';
let apiKey = '';
let keyId = '';

async function call(method: string, path: string, body?: unknown, token = apiKey): Promise<Response> {
  return fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function healthy(): Promise<boolean> {
  try {
    return (await fetch(`${base}/health`)).status === 200;
  } catch {
    return false;
  }
}

before(async () => {
  if (missing) return;
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  await podman(['volume', 'create', volume]);
  // RENDER_CONCURRENCY=1 so that a batch keeps items queued long enough to be stopped mid-way.
  const env = { HOST: '127.0.0.1', PORT: String(port), ADMIN_TOKEN: adminToken, RENDER_CONCURRENCY: '1', LOG_LEVEL: 'info' };
  await podman([
    'run',
    '--detach',
    '--name',
    name,
    '--network',
    'host',
    ...PODMAN_LIMITS,
    ...Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`]),
    '--volume',
    `${volume}:/data`,
    IMAGE,
  ]);
  await waitFor(healthy, 'the container to answer /health', 120_000);
  const created = await call('POST', '/admin/v1/keys', { name: 'image test', plan: 'business' }, adminToken);
  assert.equal(created.status, 201, await created.clone().text());
  ({ key: apiKey, id: keyId } = (await created.json()) as { key: string; id: string });
});

after(async () => {
  if (missing) return;
  await run('podman', [...PODMAN_GLOBAL, 'rm', '--force', '--time', '0', name]);
  await run('podman', [...PODMAN_GLOBAL, 'volume', 'rm', '--force', volume]);
});

const skip = missing ? ` (skipped: ${missing})` : '';

test(`the image answers /health with Chromium and LibreOffice, as an unprivileged user, and its HEALTHCHECK passes${skip}`, {
  skip: missing,
  timeout: 120_000,
}, async () => {
  const health = (await (await fetch(`${base}/health`)).json()) as { status: string; renderer: { alive: boolean }; office: { available: boolean } };
  assert.equal(health.status, 'ok');
  assert.equal(health.renderer.alive, true);
  assert.equal(health.office.available, true, JSON.stringify(health.office));
  assert.equal(await podman(['exec', name, 'id', '-u']), '10001');
  // The HEALTHCHECK in the Containerfile, run by podman as the runtime would: exit 0 is healthy.
  await podman(['healthcheck', 'run', name]);
  assert.match(await podman(['inspect', '--format', '{{.Config.StopSignal}}', name]), /^(SIGTERM|15)$/);
});

test(`the image renders HTML to a PDF that pdfinfo and pdftotext read${skip}`, { skip: missing, timeout: 120_000 }, async () => {
  const response = await call('POST', '/v1/pdf', { html: '<h1>Rendered in a container</h1><p>Quire image lane</p>' });
  assert.equal(response.status, 200, response.status === 200 ? '' : await response.text());
  const pdf = new Uint8Array(await response.arrayBuffer());
  assert.equal(pdfInfo(pdf).Pages, '1');
  const [text] = pageTexts(pdf);
  assert.match(text!, /Rendered in a container/);
  assert.match(text!, /Quire image lane/);
});

test(`the image converts a docx with its LibreOffice${skip}`, { skip: missing, timeout: 180_000 }, async () => {
  const file = docx([['Letter from the image', 'First page'], ['Second page']]);
  const response = await call('POST', '/v1/convert/office', { file: base64(file), filename: 'letter.docx' });
  assert.equal(response.status, 200, response.status === 200 ? '' : await response.text());
  const pdf = new Uint8Array(await response.arrayBuffer());
  assert.equal(pdfInfo(pdf).Pages, '2');
  const texts = pageTexts(pdf);
  assert.match(texts[0]!, /Letter from the image/);
  assert.match(texts[1]!, /Second page/);
});

test(`SIGTERM stops the container cleanly; batch items still queued complete after a restart, charged once${skip}`, {
  skip: missing,
  timeout: 300_000,
}, async () => {
  const usedBefore = await used();
  // More than 10 items: the batch is queued (202) and runs in the background, one item at a time.
  const items = Array.from({ length: 12 }, (_, i) => ({ html: `<h1>Batch item ${i}</h1>` }));
  const posted = await call('POST', '/v1/pdf/batch', { requests: items, options: { wait_until: 'load' } });
  assert.equal(posted.status, 202, await posted.clone().text());
  const { batch_id: batchId } = (await posted.json()) as { batch_id: string };
  const atStop = await batch(batchId);
  // The stop must catch items still to do, or it would prove nothing.
  assert.ok(atStop.succeeded + atStop.failed < items.length, `all items were done before the stop: ${JSON.stringify(atStop).slice(0, 300)}`);
  await podman(['kill', '--signal', 'TERM', name]);
  // podman wait prints the exit code: 0 is main.ts's clean exit after app.close().
  assert.equal(await podman(['wait', name], 120_000), '0');
  const logs = await run('podman', [...PODMAN_GLOBAL, 'logs', name]);
  assert.match(logs.stdout + logs.stderr, /shutting down: finishing in-flight renders/);

  await podman(['start', name]);
  await waitFor(healthy, 'the restarted container to answer /health', 120_000);
  await waitFor(async () => (await batch(batchId)).status === 'completed', 'the batch to complete after the restart', 180_000);
  const done = await batch(batchId);
  assert.equal(done.succeeded, items.length, JSON.stringify(done.results.filter((r) => r.status !== 'succeeded')));
  assert.equal((await used()) - usedBefore, items.length);
});

async function batch(id: string): Promise<BatchJson> {
  const response = await call('GET', `/v1/pdf/batch/${id}`);
  assert.equal(response.status, 200);
  return (await response.json()) as BatchJson;
}

async function used(): Promise<number> {
  const response = await call('GET', `/admin/v1/keys/${keyId}`, undefined, adminToken);
  return ((await response.json()) as { usage: { used: number } }).usage.used;
}
