// compose.yaml run by podman-compose (Debian's package): PostgreSQL, two Quire instances and the
// nginx proxy, with the images scripts/image-build.sh made. A key created through the proxy renders
// on both instances (their request logs show it), which only one shared PostgreSQL allows. The
// proxy's port is published on loopback only (QUIRE_LISTEN).

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { pageTexts } from '../helpers/pdf-cli.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { freePort, PODMAN_GLOBAL, PODMAN_LIMITS, podmanMissing, requestLines, run } from '../helpers/podman.ts';

const project = `quire-compose-test-${process.pid}`;
const podmanProblem = await podmanMissing();
const composeProblem =
  podmanProblem ??
  (await run('podman-compose', ['--version']).then(
    (result) => (result.code === 0 ? undefined : 'podman-compose does not run'),
    () => 'podman-compose is not installed (Debian: podman-compose)',
  ));
const skip = composeProblem ? ` (skipped: ${composeProblem})` : '';
const adminToken = `adm_${randomBytes(16).toString('hex')}`;
let base = '';
let env: NodeJS.ProcessEnv = {};

function compose(args: string[], timeoutMs = 300_000) {
  const global = ['--podman-args', PODMAN_GLOBAL.join(' '), '--podman-run-args', PODMAN_LIMITS.join(' ')];
  return run('podman-compose', ['-p', project, '-f', 'compose.yaml', ...global, ...args], { env, timeoutMs });
}

before(async () => {
  if (composeProblem) return;
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = { ...process.env, QUIRE_ADMIN_TOKEN: adminToken, POSTGRES_PASSWORD: randomBytes(12).toString('hex'), QUIRE_LISTEN: `127.0.0.1:${port}` };
  const up = await compose(['up', '-d']);
  assert.equal(up.code, 0, `podman-compose up: ${up.stderr.slice(-3000)}`);
});

after(async () => {
  if (composeProblem) return;
  await compose(['down', '--volumes'], 180_000);
  // podman-compose 1.0's down leaves the project's network behind; the next runs would pile them up.
  await run('podman', [...PODMAN_GLOBAL, 'network', 'rm', '--force', `${project}_default`]);
});

test(`compose.yaml: two instances on one PostgreSQL behind the proxy both answer for a key made through it${skip}`, {
  skip: composeProblem,
  timeout: 300_000,
}, async () => {
  await waitFor(async () => (await fetch(`${base}/health`).catch(() => undefined))?.status === 200, 'the proxy to answer /health', 180_000);
  const created = await fetch(`${base}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'compose', plan: 'business' }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const { key } = (await created.json()) as { key: string };
  const instances = [`${project}_quire-1_1`, `${project}_quire-2_1`];
  const renders = async () =>
    Promise.all(instances.map(async (container) => (await requestLines(container)).filter((line) => line.path === '/v1/pdf' && line.status === 200).length));
  // nginx takes turns; an instance still starting (waiting for PostgreSQL) is skipped until it answers.
  for (let i = 0; i < 20 && (await renders()).some((count) => count === 0); i++) {
    const response = await fetch(`${base}/v1/pdf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ html: `<p>Compose render ${i}</p>`, options: { wait_until: 'load' } }),
    });
    assert.equal(response.status, 200, response.status === 200 ? '' : await response.text());
    assert.match(pageTexts(new Uint8Array(await response.arrayBuffer()))[0]!, new RegExp(`Compose render ${i}`));
  }
  const counts = await renders();
  assert.ok(
    counts.every((count) => count > 0),
    `each instance rendered for the key: ${counts.join(', ')}`,
  );
});
