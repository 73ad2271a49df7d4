// Two real server processes on one PostgreSQL (issue 13), requests alternating between them as a
// load balancer would send them: the allowance is exact across instances (no double charge, no
// overshoot), and keys, templates and documents made through one are used through the other;
// the admin event stream and activity of either show the renders of both.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { inspectPdf } from '../helpers/pdf.ts';
import { ADMIN_TOKEN, HTML, startSeveralInstances } from '../helpers/several-instances.ts';

const { instances, issueKey } = await startSeveralInstances();

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
