// compose.yaml run by podman-compose (Debian's package): PostgreSQL, two Quire instances and the
// nginx proxy, with the images scripts/image-build.sh made. Once both instances answer /health
// through the proxy, a key created through it renders on both (their request logs show it), which
// only one shared PostgreSQL allows. The proxy's port is published on loopback only (QUIRE_LISTEN).

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

const instances = () => [`${project}_quire-1_1`, `${project}_quire-2_1`];

/** How many requests to `path` each instance answered 200 whose X-Request-Id starts with `tag` (from its request log). */
async function answered(path: string, tag: string): Promise<number[]> {
  return Promise.all(
    instances().map(
      async (container) =>
        (await requestLines(container)).filter((line) => line.path === path && line.status === 200 && line.request_id?.startsWith(tag)).length,
    ),
  );
}

/**
 * What a wait that ran out needs to say: whether each instance started (state, restarts, address
 * now) and what nginx met when it tried them (its error log names the address it connected to).
 */
async function composeState(): Promise<string> {
  const containers = [...instances(), `${project}_proxy_1`];
  const states = await run('podman', [...PODMAN_GLOBAL, 'inspect', '--format', INSTANCE_STATE, ...containers]);
  const logs = await Promise.all(
    containers.map(async (name) => {
      const log = await run('podman', [...PODMAN_GLOBAL, 'logs', '--tail', '15', name]);
      return `${name}, last log lines:\n${log.stdout}${log.stderr}`;
    }),
  );
  return `${states.stdout}${states.stderr}\n${logs.join('\n')}`;
}
const INSTANCE_STATE =
  '{{.Name}}: {{.State.Status}}, restarts {{.RestartCount}}, started {{.State.StartedAt}}, address {{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}';

/** waitFor, and when it runs out the containers' state in the error. */
async function waitExplained(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  try {
    await waitFor(check, what, timeoutMs);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${await composeState()}`);
  }
}

test(`compose.yaml: two instances on one PostgreSQL behind the proxy both answer for a key made through it${skip}`, {
  skip: composeProblem,
  timeout: 600_000,
}, async () => {
  // Both instances healthy *through the proxy*, each call tagged so its instance's log shows it: an
  // instance still starting is skipped by nginx for 10 s after a failed try (deploy/proxy/nginx.conf),
  // so counting renders before that proves nothing about it.
  let call = 0;
  await waitExplained(
    async () => {
      await fetch(`${base}/health`, { headers: { 'x-request-id': `compose-health-${call++}` } }).catch(() => undefined);
      return (await answered('/health', 'compose-health-')).every((count) => count > 0);
    },
    'both instances to answer /health through the proxy',
    300_000,
  );
  const created = await fetch(`${base}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'compose', plan: 'business' }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const { key } = (await created.json()) as { key: string };
  // nginx takes turns between the healthy instances: renders until each has answered one.
  let i = 0;
  await waitExplained(
    async () => {
      const response = await fetch(`${base}/v1/pdf`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': `compose-render-${i}` },
        body: JSON.stringify({ html: `<p>Compose render ${i}</p>`, options: { wait_until: 'load' } }),
      });
      assert.equal(response.status, 200, response.status === 200 ? '' : await response.text());
      assert.match(pageTexts(new Uint8Array(await response.arrayBuffer()))[0]!, new RegExp(`Compose render ${i}`));
      i++;
      return (await answered('/v1/pdf', 'compose-render-')).every((count) => count > 0);
    },
    'each instance to render for the key made through the proxy',
    120_000,
  );
});
