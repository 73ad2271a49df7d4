import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bearer, errorOf, startTestServer } from '../helpers/start-app.ts';
import { compiledServer } from '../helpers/compiled-server.ts';
import { REPO_ROOT } from '../helpers/server-process.ts';

const run = promisify(execFile);
const HTML = { html: '<p>cli</p>', options: { wait_until: 'load' } };
const KEY_LINE = /^sk_live_[0-9A-Za-z]{43}\n$/;

/**
 * The compiled CLI (dist/server/cli.mjs, as `npm run cli` runs it) with DATA_DIR set, run by node
 * directly: npm and its shell script cost ~0.5 CPU s a call, two dozen calls here. `viaNpm` runs it
 * as a person types it, `npm run -s cli -- ...args` (-s keeps npm's own banner off stdout).
 */
async function cli(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
  viaNpm = false,
): Promise<{ stdout: string; stderr: string; code: number }> {
  const [command, commandArgs] = viaNpm
    ? ['npm', ['run', '-s', 'cli', '--', ...args]]
    : [process.execPath, ['--enable-source-maps', path.join(await compiledServer(), 'cli.mjs'), ...args]];
  try {
    const { stdout, stderr } = await run(command, commandArgs, { cwd: REPO_ROOT, env: { ...process.env, DATA_DIR: dataDir, ...env } });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

// The tests share nothing (a DATA_DIR and a server each): side by side, the file's wall time is its slowest test's.
describe('the cli', { concurrency: true }, () => {
  test('cli keys create prints only the key, and the key works against a server on that DATA_DIR', async (t) => {
    const dataDir = await tempDir(t);
    const created = await cli(dataDir, ['keys', 'create', '--name', 'x', '--plan', 'starter'], {}, true);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, KEY_LINE);
    assert.equal(created.stderr, '');
    const key = created.stdout.trim();

    const server = await startTestServer(t, { dataDir });
    const response = await server.render(HTML, bearer(key));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-service-plan'), 'starter');
  });

  test('with a server on DATA_DIR the cli goes through its admin API: create, rotate, revoke take effect at once', async (t) => {
    const dataDir = await tempDir(t);
    const server = await startTestServer(t, { dataDir });
    const withToken = { ADMIN_TOKEN: server.adminToken };
    const refused = await cli(dataDir, ['keys', 'list']);
    assert.equal(refused.code, 1, 'without the admin token the cli cannot call the server');
    assert.match(refused.stderr, /ADMIN_TOKEN/);
    const key = (await cli(dataDir, ['keys', 'create', '--name', 'live', '--plan', 'growth', '--auto-store'], withToken)).stdout.trim();
    assert.equal((await server.render(HTML, bearer(key))).status, 200);

    const listed = JSON.parse((await cli(dataDir, ['keys', 'list', '--json'], withToken)).stdout) as {
      id: string;
      name: string;
      plan: string;
      auto_store: boolean;
      usage: { used: number };
    }[];
    const entry = listed.find((candidate) => candidate.name === 'live')!;
    assert.deepEqual([entry.plan, entry.auto_store, entry.usage.used], ['growth', true, 1]);

    const rotated = await cli(dataDir, ['keys', 'rotate', entry.id], withToken);
    assert.match(rotated.stdout, KEY_LINE);
    assert.equal((await errorOf(await server.render(HTML, bearer(key)))).code, 'unauthorized');
    assert.equal((await server.render(HTML, bearer(rotated.stdout.trim()))).headers.get('x-service-usage'), '2');

    const revoked = await cli(dataDir, ['keys', 'revoke', entry.id], withToken);
    assert.equal(revoked.code, 0);
    assert.equal(revoked.stdout, '');
    assert.equal((await errorOf(await server.render(HTML, bearer(rotated.stdout.trim())))).code, 'unauthorized');

    const viaApi = await server.createKey('free');
    const table = (await cli(dataDir, ['keys', 'list'], withToken)).stdout;
    assert.ok(table.includes(viaApi.id), 'a key made through the admin API is listed by the CLI');
    assert.ok(!table.includes(entry.id), 'revoked keys are not listed');
  });

  test('a second owner of DATA_DIR refuses, naming the folder and the pid that holds it', async (t) => {
    const dataDir = await tempDir(t);
    await startTestServer(t, { dataDir });
    for (const args of [
      ['keys', 'create', '--name', 'x', '--plan', 'free'],
      ['doctor', '--quarantine', 'keys.json'],
    ]) {
      // Without the server's URL in reach (a CLI writer racing a server that is starting), the lock refuses.
      const refused = await cli(dataDir, args, { ADMIN_TOKEN: 'adm_wrong_token_0000000000000000' });
      assert.equal(refused.code, 1, args.join(' '));
      assert.ok(refused.stderr.includes(dataDir) || refused.stderr.includes('unauthorized') || refused.stderr.includes('token'), refused.stderr);
    }
    const second = await cli(dataDir, ['doctor', '--quarantine', 'keys.json']);
    assert.match(second.stderr, new RegExp(`${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by another Quire server \\(pid ${process.pid}`));
  });

  test('cli doctor lists a damaged file, leaves it, and moves it aside only when told', async (t) => {
    const dataDir = await tempDir(t);
    await writeFile(path.join(dataDir, 'keys.json'), 'null');
    const listed = await cli(dataDir, ['doctor']);
    assert.equal(listed.code, 1);
    assert.match(listed.stdout, /^keys\.json\t.*null/m);
    const keysCommand = await cli(dataDir, ['keys', 'list']);
    assert.equal(keysCommand.code, 1);
    assert.match(keysCommand.stderr, /keys\.json is damaged/);
    const moved = await cli(dataDir, ['doctor', '--quarantine', 'keys.json']);
    assert.equal(moved.code, 0, moved.stderr);
    assert.match(moved.stdout, /quarantine\/keys\.json\./);
    assert.equal((await cli(dataDir, ['doctor'])).code, 0);
  });

  test('cli plans list shows PLANS_FILE plans; bad input is an error on stderr with exit code 1', async (t) => {
    const dataDir = await tempDir(t);
    const plans = path.join(dataDir, 'plans.json');
    await writeFile(plans, JSON.stringify([{ id: 'tiny', name: 'Tiny', monthly_documents: 3, retention: 0, batch_max_items: 0 }]));
    const listed = JSON.parse((await cli(dataDir, ['plans', 'list', '--json'], { PLANS_FILE: plans })).stdout) as { id: string }[];
    assert.deepEqual(
      listed.map((plan) => plan.id),
      ['free', 'starter', 'growth', 'scale', 'business', 'tiny'],
    );
    assert.match((await cli(dataDir, ['plans', 'list'])).stdout, /^id\s+name\s+monthly_documents/);

    const unknownPlan = await cli(dataDir, ['keys', 'create', '--name', 'x', '--plan', 'gold']);
    assert.deepEqual([unknownPlan.code, unknownPlan.stdout], [1, '']);
    assert.match(unknownPlan.stderr, /quire: plan must be one of free, starter, growth, scale, business \(got "gold"\)/);
    const missingName = await cli(dataDir, ['keys', 'create', '--plan', 'free']);
    assert.deepEqual([missingName.code, missingName.stdout], [1, '']);
    assert.match(missingName.stderr, /keys create needs --name and --plan/);
    const unknownKey = await cli(dataDir, ['keys', 'revoke', 'key_nope']);
    assert.match(unknownKey.stderr, /There is no API key key_nope/);
    await writeFile(plans, '[{"id": "tiny"}]');
    const badPlans = await cli(dataDir, ['plans', 'list'], { PLANS_FILE: plans });
    assert.equal(badPlans.code, 1);
    assert.match(badPlans.stderr, /PLANS_FILE .*plans\.json: entry 0 \(id "tiny"\): name is required/);
  });
});
