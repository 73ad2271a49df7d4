// The ready-to-copy calls the admin window and playground show (ui/src/lib/snippets.ts) really
// work when pasted: the curl command run by bash and the JavaScript run by node, against a
// started server, with HTML full of quotes and shell metacharacters.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { curlSnippet, fetchSnippet } from '../../ui/src/lib/snippets.ts';
import { startTestServer } from '../helpers/start-app.ts';
import { inspectPdf } from '../helpers/pdf.ts';

const run = promisify(execFile);
const TRICKY = `<p>It's "quoted" $HOME \`uname\` $(echo no) \\n & | ; < > — ünïcode</p>`;

test('the curl and JavaScript snippets render the same PDF when pasted into bash and node', async (t) => {
  const server = await startTestServer(t);
  const folder = await mkdtemp(path.join(os.tmpdir(), 'quire-snippets-'));
  t.after(() => rm(folder, { recursive: true, force: true }));
  const env = { ...process.env, QUIRE_API_KEY: server.key.key };
  const body = { html: TRICKY, options: { wait_until: 'load' } };

  const curlOut = path.join(folder, 'curl.pdf');
  await run('bash', ['-c', curlSnippet({ origin: server.url, path: '/v1/pdf', body, keyed: true, output: curlOut })], { env });
  const fromCurl = await inspectPdf(await readFile(curlOut));
  assert.match(fromCurl.text, /It's "quoted" \$HOME `uname` \$\(echo no\) \\n & \| ; < > — ünïcode/);

  const playgroundOut = path.join(folder, 'playground.pdf');
  await run('bash', ['-c', curlSnippet({ origin: server.url, path: '/v1/playground/pdf', body, keyed: false, output: playgroundOut })], {
    env: { PATH: process.env.PATH },
  });
  assert.match((await inspectPdf(await readFile(playgroundOut))).text, /It's "quoted"/);

  const script = path.join(folder, 'render.mjs');
  await writeFile(script, fetchSnippet({ origin: server.url, path: '/v1/pdf', body, keyed: true, output: 'js.pdf' }));
  await run(process.execPath, [script], { env, cwd: folder });
  assert.match((await inspectPdf(await readFile(path.join(folder, 'js.pdf')))).text, /It's "quoted" \$HOME/);
});
