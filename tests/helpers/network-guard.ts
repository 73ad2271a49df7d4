// Canary servers for the network guard tests (tests/api/network-guard*.test.ts): loopback ports
// and addresses that ALLOW_HOSTS does not open, and the check that none of them was reached.

import assert from 'node:assert/strict';
import { startRecordingServer, type RecordingServer } from './canary.ts';

export interface Canaries {
  /** 127.0.0.1 on a port ALLOW_HOSTS does not name. */
  loopback: RecordingServer;
  /** 127.0.0.2 on the fixture's own (allowed) port: ALLOW_HOSTS 127.0.0.1:<port> must not open it. */
  sibling: RecordingServer;
  /** [::1] on a port of its own. */
  v6: RecordingServer;
  all: RecordingServer[];
}

export async function startCanaries(fixturePort: number): Promise<Canaries> {
  const loopback = await startRecordingServer('127.0.0.1');
  const sibling = await startRecordingServer('127.0.0.2', fixturePort);
  const v6 = await startRecordingServer('::1');
  return { loopback, sibling, v6, all: [loopback, sibling, v6] };
}

export function assertUntouched(canaries: Canaries, what: string): void {
  for (const canary of canaries.all) {
    assert.equal(canary.connections, 0, `${what}: canary ${canary.url} was reached (${canary.hits.join(', ') || 'a bare connection'})`);
  }
}
