// `npm run mcp` (stdio, docs/mcp.md) driven by the SDK's own client, as a desktop assistant spawns
// it: against the server running on DATA_DIR (found by its lock), and with no server running, when
// it starts one on DATA_DIR itself and stops it when the assistant hangs up. stdout is JSON-RPC alone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startTestServer } from '../helpers/start-app.ts';
import { call, connect, embeddedPdf, factsOf, toolFlow } from '../helpers/mcp.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { REPO_ROOT } from '../helpers/server-process.ts';
import { lockHolder } from '../../server/src/stores/data-dir-lock.ts';
import { waitFor } from '../helpers/wait-for.ts';

const run = promisify(execFile);

/** `npm run -s mcp` with this environment, its stderr kept for the failure message. */
function stdio(env: Record<string, string>): { transport: StdioClientTransport; stderr: () => string } {
  const transport = new StdioClientTransport({
    command: 'npm',
    args: ['run', '-s', 'mcp'],
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { transport, stderr: () => stderr };
}

test('over stdio, against the server running on DATA_DIR: the issue’s flow', { timeout: 300_000 }, async (t) => {
  // A server of the test's own (an override), so its DATA_DIR and lock are real.
  const server = await startTestServer(t, { mcpInlineMaxBytes: 4 * 1024 * 1024 });
  const { transport, stderr } = stdio({ DATA_DIR: server.dataDir, QUIRE_API_KEY: server.key.key, QUIRE_URL: '' });
  const client = await connect(t, transport).catch((error: Error) => assert.fail(`${error.message}\n${stderr()}`));
  await toolFlow(client, server, server.key.key);
});

test('over stdio with no server running: it starts one on DATA_DIR, and stops it when the client hangs up', { timeout: 300_000 }, async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-mcp-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir, QUIRE_URL: '', LOG_LEVEL: 'info' };
  const { stdout: key } = await run('npm', ['run', '-s', 'cli', '--', 'keys', 'create', '--name', 'assistant', '--plan', 'starter'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
  });
  const { transport, stderr } = stdio({ ...env, QUIRE_API_KEY: key.trim() });
  const client = await connect(t, transport).catch((error: Error) => assert.fail(`${error.message}\n${stderr()}`));
  const result = await call(client, 'render_pdf', { markdown: '# From stdio\n\nA server of its own.' });
  assert.equal(factsOf(result).pages, 1);
  assert.match((await inspectPdf(embeddedPdf(result))).text, /From stdio A server of its own/);
  assert.match(stderr(), /started a server on the data folder/, 'logs go to stderr');
  assert.equal((await lockHolder(dataDir))?.role, 'server');

  await client.close();
  await waitFor(async () => (await lockHolder(dataDir)) === undefined, 'the started server to stop', 60_000);
});
