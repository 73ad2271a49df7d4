// The hot folder (WATCH_DIR, server/src/queue/hot-folder.ts) on a real Chromium: files dropped into
// in/ become PDFs in out/ (checked by their text and paper), charged to the key settings.json names;
// bad files land in failed/ with the API's {code, detail}; files still being written wait; a file
// claimed when the server stopped is rendered at the next start, and one already rendered is not
// charged twice; DATA_DIR/server.json tells local tools where the server is.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/start-app.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { appears, waitFor } from '../helpers/wait-for.ts';

const FAST = { hotFolderIntervalMs: 100 };

async function watchDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-hot-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function used(server: TestServer, keyId = server.key.id): Promise<number> {
  const response = await server.admin('GET', `/admin/v1/keys/${keyId}`);
  return ((await response.json()) as { usage: { used: number } }).usage.used;
}

async function configure(dir: string, server: TestServer): Promise<void> {
  await writeFile(path.join(dir, 'settings.json'), JSON.stringify({ key_id: server.key.id }));
}

test('html and json files dropped into in/ become PDFs in out/, charged to the settings key; bad files land in failed/ with {code, detail}', async (t) => {
  const dir = await watchDir(t);
  const server = await startTestServer(t, { watchDir: dir }, FAST);
  await configure(dir, server);
  await writeFile(path.join(dir, 'in', 'letter.json'), JSON.stringify({ html: '<h1>Hot invoice</h1>', options: { format: 'Letter', wait_until: 'load' } }));
  await writeFile(path.join(dir, 'in', 'note.html'), '<p>Dropped as html</p>');
  await writeFile(path.join(dir, 'in', 'broken.json'), '{ "html": ');
  await writeFile(path.join(dir, 'in', 'wrong.json'), JSON.stringify({ html: '<p>x</p>', options: { scale: 9 } }));
  await writeFile(path.join(dir, 'in', 'private.json'), JSON.stringify({ url: 'http://10.1.2.3/' }));

  await appears(path.join(dir, 'out', 'letter.pdf'));
  await appears(path.join(dir, 'out', 'note.pdf'));
  const letter = await inspectPdf(await readFile(path.join(dir, 'out', 'letter.pdf')));
  assert.match(letter.text, /Hot invoice/);
  assert.deepEqual([letter.pages[0]!.width, letter.pages[0]!.height], [612, 792]);
  assert.match((await inspectPdf(await readFile(path.join(dir, 'out', 'note.pdf')))).text, /Dropped as html/);

  // A failure writes its error file, then moves the input beside it (queue/hot-folder.ts fail()): over once both are done.
  const failure = async (name: string) => {
    await appears(path.join(dir, 'failed', `${name}.json`));
    await waitFor(async () => !(await readdir(path.join(dir, 'processing'))).some((file) => file.startsWith(`${name}.`)), `${name} to leave processing/`);
    return JSON.parse(await readFile(path.join(dir, 'failed', `${name}.json`), 'utf8')) as { code: string; detail: string; file: string };
  };
  assert.equal((await failure('broken')).code, 'invalid_json');
  const wrong = await failure('wrong');
  assert.equal(wrong.code, 'invalid_request');
  assert.match(wrong.detail, /options\.scale/);
  assert.equal((await failure('private')).code, 'url_blocked');
  assert.ok(existsSync(path.join(dir, 'failed', 'wrong.request.json')), 'the input is kept beside its error');
  assert.deepEqual(await readdir(path.join(dir, 'in')), []);
  assert.deepEqual(await readdir(path.join(dir, 'processing')), []);
  assert.equal(await used(server), 2, 'the two PDFs are charged, the failures are not');
});

test('a file still being written is not picked up until it stops changing, and in-progress names are never taken', async (t) => {
  const dir = await watchDir(t);
  const server = await startTestServer(t, { watchDir: dir }, FAST);
  await configure(dir, server);
  const growing = path.join(dir, 'in', 'growing.json');
  await writeFile(growing, '{"html": "<p>Written slowly</p>"');
  await writeFile(path.join(dir, 'in', 'copying.json.part'), '{"html": "<p>x</p>"}');
  await writeFile(path.join(dir, 'in', '.hidden.html'), '<p>x</p>');
  // While the writer keeps appending, another file dropped after it goes through.
  let writing = true;
  const writer = (async () => {
    while (writing) {
      await appendFile(growing, ' ');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  await writeFile(path.join(dir, 'in', 'after.html'), '<p>Dropped after</p>');
  await appears(path.join(dir, 'out', 'after.pdf'));
  assert.ok(existsSync(growing), 'the file being written is still in in/');
  assert.ok(!existsSync(path.join(dir, 'failed', 'growing.json')), 'and was not taken half-written');
  writing = false;
  await writer;
  await appendFile(growing, '}');
  await appears(path.join(dir, 'out', 'growing.pdf'));
  assert.match((await inspectPdf(await readFile(path.join(dir, 'out', 'growing.pdf')))).text, /Written slowly/);
  assert.deepEqual((await readdir(path.join(dir, 'in'))).sort(), ['.hidden.html', 'copying.json.part']);
});

test('nothing is lost across a restart: a file claimed when the server stopped is rendered at the next start; one already rendered is not charged again', async (t) => {
  const dir = await watchDir(t);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-hot-data-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const server = await startTestServer(t, { watchDir: dir, dataDir }, FAST);
  await configure(dir, server);
  // As a stop or crash leaves them: claimed into processing/, one of them with its PDF already written.
  await mkdir(path.join(dir, 'processing'), { recursive: true });
  await writeFile(path.join(dir, 'processing', 'interrupted.html'), '<p>Claimed before the crash</p>');
  await appears(path.join(dir, 'out', 'interrupted.pdf'));
  assert.match((await inspectPdf(await readFile(path.join(dir, 'out', 'interrupted.pdf')))).text, /Claimed before the crash/);
  assert.equal(await used(server), 1);
  await server.app.close();

  await writeFile(path.join(dir, 'processing', 'done.html'), '<p>Rendered before the crash</p>');
  await new Promise((resolve) => setTimeout(resolve, 20));
  await writeFile(path.join(dir, 'out', 'done.pdf'), 'already written');
  const restarted = await startTestServer(t, { watchDir: dir, dataDir, adminToken: server.adminToken }, FAST);
  assert.deepEqual(await readdir(path.join(dir, 'processing')), [], 'the claim whose PDF was written is settled at start-up');
  assert.equal(await readFile(path.join(dir, 'out', 'done.pdf'), 'utf8'), 'already written');
  assert.equal(await used(restarted, server.key.id), 1, 'and not rendered or charged again');
});

test('files wait in in/ until settings.json names a live key; DATA_DIR/server.json names the running server and never its token', async (t) => {
  const dir = await watchDir(t);
  const server = await startTestServer(t, { watchDir: dir }, FAST);
  const discovery = JSON.parse(await readFile(path.join(server.dataDir, 'server.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(discovery.base_url, server.url);
  assert.equal(discovery.port, Number(new URL(server.url).port));
  assert.equal(discovery.pid, process.pid);
  assert.equal(typeof discovery.version, 'string');
  assert.doesNotMatch(JSON.stringify(discovery), new RegExp(server.adminToken));

  await writeFile(path.join(dir, 'in', 'waiting.html'), '<p>Waited for its key</p>');
  await writeFile(path.join(dir, 'settings.json'), JSON.stringify({ key_id: 'key_doesnotexist' }));
  // A file that can be rendered later is never failed for a missing key: the next one dropped waits too.
  await writeFile(path.join(dir, 'in', 'also.html'), '<p>x</p>');
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.deepEqual((await readdir(path.join(dir, 'in'))).sort(), ['also.html', 'waiting.html']);
  assert.deepEqual(await readdir(path.join(dir, 'failed')), []);
  await configure(dir, server);
  await appears(path.join(dir, 'out', 'waiting.pdf'));
  assert.match((await inspectPdf(await readFile(path.join(dir, 'out', 'waiting.pdf')))).text, /Waited for its key/);

  await server.app.close();
  assert.ok(!existsSync(path.join(server.dataDir, 'server.json')), 'removed when the server stops');
});
