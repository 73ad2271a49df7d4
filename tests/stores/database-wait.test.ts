// Opening the PostgreSQL stores waits for a server that is not up yet (connection refused, still
// starting) instead of failing at once: in compose an instance that exited while PostgreSQL started
// came back at a new address that nginx never learned (issue 40). A wrong password still fails at once.

import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { openDatabase } from '../../server/src/stores/pg/database.ts';
import { startTestDatabase } from '../helpers/postgres.ts';

/** Where the test database really listens: its Unix socket (the throwaway cluster) or host:port. */
function upstreamOf(url: string): net.NetConnectOpts {
  const parsed = new URL(url);
  const port = Number(parsed.port || 5432);
  const socketFolder = parsed.searchParams.get('host');
  return socketFolder ? { path: `${socketFolder}/.s.PGSQL.${port}` } : { host: parsed.hostname, port };
}

/** The same database reached through a loopback TCP port that is closed until `listen()`. */
async function closedUntilListening(url: string) {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const relay = net.createServer((client) => {
    const upstream = net.connect(upstreamOf(url));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  const parsed = new URL(url);
  const tcpUrl = `postgresql://${parsed.username || 'postgres'}${parsed.password ? `:${parsed.password}` : ''}@127.0.0.1:${port}${parsed.pathname}`;
  return {
    tcpUrl,
    listen: () => new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve)),
    close: () => new Promise((resolve) => relay.close(resolve)),
  };
}

test('openDatabase waits for a server that refuses connections until it is up, then migrates', async (t) => {
  const database = await startTestDatabase(t);
  const relay = await closedUntilListening(database.url);
  t.after(() => relay.close());
  const refusals: string[] = [];
  const opened = openDatabase(relay.tcpUrl, {
    onWait: (error) => {
      refusals.push((error as { code?: string }).code ?? '');
      // The server comes up once the first connection was refused.
      if (refusals.length === 1) void relay.listen();
    },
  });
  const db = await opened;
  t.after(() => db.close());
  assert.equal(refusals[0], 'ECONNREFUSED');
  const { rows } = await db.pool.query<{ count: string }>("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'");
  assert.ok(Number(rows[0]!.count) > 0, 'the schema was migrated');
});

test('openDatabase gives up on a server that stays down once its wait is over', async () => {
  const relay = await closedUntilListening('postgresql://postgres@localhost/postgres?host=/nonexistent');
  let waits = 0;
  await assert.rejects(openDatabase(relay.tcpUrl, { waitMs: 300, onWait: () => waits++ }), { code: 'ECONNREFUSED' });
  assert.ok(waits >= 1, 'it waited before giving up');
});
