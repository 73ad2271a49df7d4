// Two real server processes on one PostgreSQL (issue 13), requests alternating between them as a
// load balancer would send them: the allowance is exact across instances (no double charge, no
// overshoot), and keys, templates and documents made through one are used through the other.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestDatabase } from '../helpers/postgres.ts';
import { startInstances, type Instances } from '../helpers/instances.ts';
import { startServerProcess } from '../helpers/server-process.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writePlansFile } from '../helpers/test-plans.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../helpers/server-process.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { startRecordingServer } from '../helpers/canary.ts';

const ADMIN_TOKEN = 'adm_several_instances_0123456789';
const HTML = (text: string) => ({ html: `<h1>${text}</h1>`, options: { wait_until: 'load' } });

const database = await startTestDatabase({ after });
const plansFile = await writePlansFile({ after }, [{ id: 'twenty', name: 'Twenty', monthly_documents: 20, retention: '30d', batch_max_items: 10 }]);
// A webhook receiver on loopback, opened to the guard: its first delivery is never answered (the
// instance sending it is killed meanwhile), later ones get 200.
const hooks: { id: string }[] = [];
const receiver = await startRecordingServer('127.0.0.1', 0, {
  '/hook': (req, res) => {
    hooks.push({ id: String(req.headers['webhook-id']) });
    req.resume();
    if (hooks.length > 1) req.on('end', () => void res.writeHead(200).end('ok'));
  },
});
after(() => receiver.close());
// Leases of 2 s (renewed every 0.7 s): a killed instance's batch is adopted within ~3 s instead of 15-20 s.
const SETTINGS = { ADMIN_TOKEN, PLANS_FILE: plansFile, ALLOW_HOSTS: `127.0.0.1:${receiver.port}`, BATCH_LEASE_SECONDS: '2' };
// Started here, not in a test: a hook registered inside a test would stop them when it ends.
const instances: Instances = await startInstances({ after }, 2, database.url, SETTINGS);

async function issueKey(plan: string): Promise<{ id: string; key: string }> {
  const response = await instances.call('POST', '/admin/v1/keys', ADMIN_TOKEN, { name: `key ${plan}`, plan });
  assert.equal(response.status, 201);
  return (await response.json()) as { id: string; key: string };
}

test('40 concurrent renders on a 20-document plan over two instances: exactly 20 succeed, and usage reads 20 on both', { timeout: 300_000 }, async () => {
  const key = await issueKey('twenty');
  const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => instances.call('POST', '/v1/pdf', key.key, HTML(`render ${i}`))));
  const statuses = responses.map((response) => response.status);
  await Promise.all(responses.map((response) => response.arrayBuffer()));
  assert.equal(statuses.filter((status) => status === 200).length, 20, `statuses: ${statuses.join(',')}`);
  assert.equal(statuses.filter((status) => status === 402).length, 20, `statuses: ${statuses.join(',')}`);
  for (const instance of [0, 1]) {
    const listed = (await (await instances.callOn(instance, 'GET', `/admin/v1/keys/${key.id}`, ADMIN_TOKEN)).json()) as { usage: { used: number } };
    assert.equal(listed.usage.used, 20);
  }
});

test('a document stored through one instance is listed, fetched and deleted through the other', { timeout: 120_000 }, async () => {
  const key = await issueKey('business');
  const rendered = await instances.callOn(0, 'POST', '/v1/pdf', key.key, { ...HTML('Stored on one'), store: true, filename: 'one.pdf' });
  assert.equal(rendered.status, 200);
  const id = rendered.headers.get('x-document-id')!;
  assert.match(id, /^doc_/);
  const listed = (await (await instances.callOn(1, 'GET', '/v1/documents', key.key)).json()) as { data: { id: string; filename: string }[] };
  assert.deepEqual(
    listed.data.map((document) => [document.id, document.filename]),
    [[id, 'one.pdf']],
  );
  const fetched = await instances.callOn(1, 'GET', `/v1/documents/${id}`, key.key);
  assert.equal(fetched.status, 200);
  assert.match((await inspectPdf(await fetched.arrayBuffer())).text, /Stored on one/);
  assert.equal((await instances.callOn(1, 'DELETE', `/v1/documents/${id}`, key.key)).status, 204);
  assert.equal((await instances.callOn(0, 'GET', `/v1/documents/${id}`, key.key)).status, 404);
});

test('a key and a template made through one instance work through the other; a revoked key stops on both', { timeout: 120_000 }, async () => {
  const key = await issueKey('business');
  const created = await instances.callOn(0, 'POST', '/v1/templates', key.key, { name: 'greeting', html: '<p>Hello {{name}}</p>' });
  assert.equal(created.status, 201);
  const { template_id } = (await created.json()) as { template_id: string };
  const rendered = await instances.callOn(1, 'POST', '/v1/pdf', key.key, { template_id, data: { name: 'Ada' }, options: { wait_until: 'load' } });
  assert.equal(rendered.status, 200);
  assert.match((await inspectPdf(await rendered.arrayBuffer())).text, /Hello Ada/);
  assert.equal((await instances.callOn(1, 'DELETE', `/admin/v1/keys/${key.id}`, ADMIN_TOKEN)).status, 204);
  for (const instance of [0, 1]) assert.equal((await instances.callOn(instance, 'GET', '/v1/templates', key.key)).status, 401);
});

test('the admin event stream of one instance shows the renders done by the other', { timeout: 120_000 }, async () => {
  const key = await issueKey('business');
  const stream = await instances.callOn(0, 'GET', '/admin/v1/events', ADMIN_TOKEN);
  assert.equal(stream.status, 200);
  const reader = stream.body!.getReader();
  try {
    // The stream is open (headers answered) before the render, so its event cannot be missed.
    assert.equal((await instances.callOn(1, 'POST', '/v1/pdf', key.key, HTML('seen elsewhere'))).status, 200);
    let text = '';
    while (!text.includes(`"key_id":"${key.id}"`)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const event = text.split('\n\n').find((block) => block.includes(`"key_id":"${key.id}"`));
    assert.match(event ?? '', /^event: usage\.changed$/m);
    assert.match(event ?? '', /"used":1\b/);
  } finally {
    await reader.cancel();
  }
});

test('the activity of either instance lists the renders of both under their own instance names, minute counts adding up; a stream on one sees a render on the other', {
  timeout: 120_000,
}, async () => {
  const key = await issueKey('business');
  // An instance names itself host:pid (app.ts); these are real processes, so the names differ (the
  // test:two lane's two apps share one process, hence one name: this test belongs here).
  const names = instances.servers.map((server) => `${os.hostname()}:${server.child.pid}`);
  assert.notEqual(names[0], names[1]);
  const streams = await Promise.all([0, 1].map((instance) => openEventStream(instance)));
  try {
    const before = await Promise.all([0, 1].map((instance) => activityOf(instance)));
    for (const instance of [0, 1]) {
      assert.equal((await instances.callOn(instance, 'POST', '/v1/pdf', key.key, HTML(`activity on ${instance}`))).status, 200);
    }
    // Both streams opened before the renders, so neither event can be missed; once a stream has
    // carried an event, its instance's activity has taken it too (it subscribed first, at start).
    const ours = (events: StreamEvent[]) => events.filter((event) => event.type === 'render.completed' && event.data.key_id === key.id);
    const seen = await Promise.all(streams.map((stream) => stream.until((events) => ours(events).length === 2)));
    const expected = (instance: number) => ({
      instance: names[instance],
      key_id: key.id,
      kind: 'pdf',
      source: 'html',
      status: 'succeeded',
      code: null,
      pages: 1,
    });
    const summary = (events: StreamEvent[]) =>
      ours(events).map(({ data }) => ({
        instance: data.instance,
        key_id: data.key_id,
        kind: data.kind,
        source: data.source,
        status: data.status,
        code: data.code,
        pages: data.pages,
      }));
    assert.deepEqual(summary(seen[0]!), [expected(0), expected(1)], "instance 0's stream: its own render, then the one on instance 1");
    assert.deepEqual(summary(seen[1]!), summary(seen[0]!), 'the same events in the same order on both streams');

    const after = await Promise.all([0, 1].map((instance) => activityOf(instance)));
    for (const instance of [0, 1]) {
      const activity = after[instance]!;
      assert.deepEqual(
        activity.recent.filter((render) => render.key_id === key.id).map((render) => render.instance),
        [names[1], names[0]],
        `instance ${instance}: both renders in recent, newest first, each under the name of the instance that rendered it`,
      );
      assert.equal(activity.minutes.length, 60);
      for (const minute of activity.minutes) {
        assert.equal(minute.succeeded + minute.failed, minute.renders, `instance ${instance}, ${minute.minute}`);
        assert.equal(
          Object.values(minute.by_code).reduce((sum, count) => sum + count, 0),
          minute.failed,
          `instance ${instance}, ${minute.minute}`,
        );
      }
      // Every render of this file's hour is in a minute and (fewer than 200) in recent.
      assert.equal(totalRenders(activity), activity.recent.length, `instance ${instance}: the minutes add up to the renders listed`);
      // At least ours: an earlier test's render may be taken in between (its event comes after its response).
      assert.ok(totalRenders(activity) - totalRenders(before[instance]!) >= 2, `instance ${instance}: the two renders, one minute count each`);
    }
    assert.deepEqual(after[1]!.recent, after[0]!.recent, 'both instances list the same renders in the same order');

    // Each instance reports its renderer as it starts and every 5 s after: instance 0, listening
    // before instance 1 started, has heard both; instance 1 has heard itself (and instance 0 from its next report on).
    const listed = (instance: number) => after[instance]!.instances.map((stats) => stats.instance);
    assert.deepEqual(listed(0).sort(), [...names].sort(), "instance 0 lists both instances' renderers");
    assert.ok(listed(1).includes(names[1]!), 'instance 1 lists its own renderer');
  } finally {
    await Promise.all(streams.map((stream) => stream.close()));
  }
});

interface Activity {
  minutes: { minute: string; renders: number; succeeded: number; failed: number; by_code: Record<string, number> }[];
  recent: { instance: string; key_id: string | null; kind: string; source: string; status: string; code: string | null; pages: number | null }[];
  instances: { instance: string }[];
}

async function activityOf(instance: number): Promise<Activity> {
  const response = await instances.callOn(instance, 'GET', '/admin/v1/activity', ADMIN_TOKEN);
  assert.equal(response.status, 200);
  return (await response.json()) as Activity;
}

function totalRenders(activity: Activity): number {
  return activity.minutes.reduce((sum, minute) => sum + minute.renders, 0);
}

type StreamEvent = { type: string; data: Record<string, unknown> & Activity['recent'][number] };

/** GET /admin/v1/events on one instance, its events parsed as they come; until() reads on until the events so far satisfy a condition. */
async function openEventStream(instance: number) {
  const response = await instances.callOn(instance, 'GET', '/admin/v1/events', ADMIN_TOKEN);
  assert.equal(response.status, 200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: StreamEvent[] = [];
  let buffered = '';
  return {
    async until(done: (events: StreamEvent[]) => boolean): Promise<StreamEvent[]> {
      while (!done(events)) {
        const { value, done: ended } = await reader.read();
        if (ended) throw new Error(`instance ${instance}'s event stream ended`);
        buffered += decoder.decode(value, { stream: true });
        const blocks = buffered.split('\n\n');
        buffered = blocks.pop()!;
        for (const block of blocks) {
          const type = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (type && data) events.push({ type, data: JSON.parse(data) as StreamEvent['data'] });
        }
      }
      return events;
    },
    close: () => reader.cancel(),
  };
}

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
  while ((await read(1)).succeeded === 0) await sleep(100);
  await doomed.crash();
  const killedAt = Date.now();
  let batch = await read(0);
  while (batch.status !== 'completed') {
    await sleep(250);
    batch = await read(0);
  }
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
  const body = { requests: [{ html: '<h1>hooked</h1>', options: { wait_until: 'load' } }], webhook_url: `http://127.0.0.1:${receiver.port}/hook` };
  const created = await fetch(`${doomed.url}/v1/pdf/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(created.status, 200, await created.clone().text());
  const { batch_id } = (await created.json()) as { batch_id: string };
  // The first try reached the receiver, which holds it unanswered: the sender dies mid-delivery.
  while (hooks.length === 0) await sleep(50);
  await doomed.crash();
  let admin = (await (await instances.callOn(0, 'GET', `/admin/v1/batches/${batch_id}`, ADMIN_TOKEN)).json()) as {
    webhook_status: string;
    deliveries: { ok: boolean }[];
  };
  while (admin.webhook_status !== 'delivered') {
    await sleep(250);
    admin = (await (await instances.callOn(0, 'GET', `/admin/v1/batches/${batch_id}`, ADMIN_TOKEN)).json()) as typeof admin;
  }
  assert.equal(hooks.length, 2);
  assert.equal(hooks[1]!.id, hooks[0]!.id, 'the same message: receivers can drop a repeat');
  assert.deepEqual(
    admin.deliveries.map((delivery) => delivery.ok),
    [true],
    "the try cut by the kill was never recorded; the adopter's is",
  );
});
