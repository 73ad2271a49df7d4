// Two real server processes on one PostgreSQL for tests/api/several-instances*.test.ts, with a
// webhook receiver on loopback and a plan of twenty documents.

import { after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestDatabase } from './postgres.ts';
import { startInstances, type Instances } from './instances.ts';
import { writePlansFile } from './test-plans.ts';
import { startRecordingServer } from './canary.ts';

export const ADMIN_TOKEN = 'adm_several_instances_0123456789';
export const HTML = (text: string) => ({ html: `<h1>${text}</h1>`, options: { wait_until: 'load' } });

/** Call at the top level of a test file, not in a test: a hook registered inside a test would stop the instances when it ends. */
export async function startSeveralInstances() {
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
  // A render may wait 120 s for a slot, not the default 10 s: 20 renders queued on two slots per
  // instance must not turn into 503 renderer_busy when load slows each render (the exact counts).
  const SETTINGS = {
    ADMIN_TOKEN,
    PLANS_FILE: plansFile,
    ALLOW_HOSTS: `127.0.0.1:${receiver.port}`,
    BATCH_LEASE_SECONDS: '2',
    RENDER_QUEUE_TIMEOUT_MS: '120000',
  };
  const instances: Instances = await startInstances({ after }, 2, database.url, SETTINGS);

  async function issueKey(plan: string): Promise<{ id: string; key: string }> {
    const response = await instances.call('POST', '/admin/v1/keys', ADMIN_TOKEN, { name: `key ${plan}`, plan });
    assert.equal(response.status, 201);
    return (await response.json()) as { id: string; key: string };
  }
  return { database, plansFile, hooks, receiver, SETTINGS, instances, issueKey };
}
