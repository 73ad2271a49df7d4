// The two-instance lane (QUIRE_TEST_INSTANCES=2, npm run test:two): startTestServer starts two
// in-process apps on one fresh PostgreSQL database, each with a DATA_DIR of its own and the same
// admin token and settings, behind a loopback round-robin reverse proxy, so the API tests run
// unchanged against "two instances behind one address" (docs/operations.md#several-instances-postgresql).

import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import type { App, AppOverrides } from '../../server/src/app.ts';
import type { Config } from '../../server/src/config.ts';
import { createSharedTestDatabase, stopSharedServer, type TestDatabase } from './postgres.ts';
import { testInstances } from './test-instances.ts';

// One PostgreSQL cluster per test file (process), stopped when the file's tests end; each
// DATA_DIR a test starts on gets a database of its own (dropped when the file's tests end), so a
// restart on that DATA_DIR finds its state as the files would.
if (testInstances === 2) {
  after(async () => {
    const unused = ready ? [ready] : [];
    await Promise.all([...kept.values(), ...unused].map(async (database) => (await database.catch(() => undefined))?.close()));
    await stopSharedServer();
  });
}

const kept = new Map<string, Promise<TestDatabase>>();
/** The next server's database, created and migrated while the current test runs (it takes ~0.5 s). */
let ready: Promise<TestDatabase> | undefined;

function databaseOf(dataDir: string): Promise<TestDatabase> {
  let database = kept.get(dataDir);
  if (!database) {
    database = ready ?? migratedDatabase();
    kept.set(dataDir, database);
    ready = migratedDatabase();
    ready.catch(() => undefined);
  }
  return database;
}

async function migratedDatabase(): Promise<TestDatabase> {
  const database = await createSharedTestDatabase();
  const { openDatabase } = await import('../../server/src/stores/pg/database.ts');
  await (await openDatabase(database.url)).close();
  return database;
}

type Hook = { after: (fn: () => Promise<void>) => void };

export interface TwoInstances {
  /** The first instance (tests that reach one process's internals cannot run in this lane). */
  app: App;
  apps: App[];
  /** The proxy's address: requests alternate between the instances. */
  url: string;
  /** The first instance's DATA_DIR. */
  dataDir: string;
}

/**
 * Starts two apps with the same config (each its own DATA_DIR) on the database of the first
 * DATA_DIR (new unless a test restarts on that DATA_DIR), and a proxy in front.
 */
export async function startTwoInstances(t: Hook, config: Config, collaborators: AppOverrides): Promise<TwoInstances> {
  if (!config.adminToken) throw new Error('the two-instance lane needs one ADMIN_TOKEN for both instances (a generated one differs per DATA_DIR)');
  // A test that restarts on a DATA_DIR restarts both instances on the same database.
  const database = await databaseOf(config.dataDir);
  const apps: App[] = [];
  const folders = [config.dataDir];
  const urls: string[] = [];
  let proxy: { url: string; close(): Promise<void> } | undefined;
  t.after(async () => {
    await proxy?.close();
    await Promise.all(apps.map((app) => app.close()));
    await Promise.all(folders.slice(1).map((folder) => rm(folder, { recursive: true, force: true })));
  });
  const { createApp } = await import('../../server/src/app.ts');
  // One at a time, as an operator would start them (the schema is migrated already: migratedDatabase).
  for (const i of [0, 1]) {
    if (i > 0) folders.push(await mkdtemp(path.join(os.tmpdir(), 'quire-test-second-')));
    const app = await createApp({ ...config, dataDir: folders[i]!, databaseUrl: database.url }, collaborators);
    apps.push(app);
    urls.push(await app.listen());
  }
  proxy = await startRoundRobinProxy(urls);
  return { app: apps[0]!, apps, url: proxy.url, dataDir: folders[0]! };
}

/**
 * A loopback reverse proxy that sends each request to the next target in turn. Bodies are
 * streamed both ways and headers passed as they are (Content-Length or chunked, SSE included).
 */
export async function startRoundRobinProxy(targets: readonly string[]): Promise<{ url: string; close(): Promise<void> }> {
  const agents = targets.map(() => new http.Agent({ keepAlive: true }));
  let next = 0;
  const server = http.createServer((request, response) => {
    const turn = next++ % targets.length;
    const target = new URL(targets[turn]!);
    const headers = { ...request.headers };
    delete headers.connection;
    delete headers['keep-alive'];
    let answered = false;
    const drain = () => {
      request.unpipe(upstream);
      request.resume();
      upstream.destroy();
    };
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers, agent: agents[turn] },
      (answer) => {
        answered = true;
        // Answered before the whole body was sent (an early 413): the rest of the body is read and
        // dropped, as the instance itself does, and the connection to the instance is not used again.
        if (!request.complete) answer.once('end', () => drain());
        // An instance that closes its connection after this answer: so does the proxy, towards the client.
        if (answer.headers.connection === 'close') response.shouldKeepAlive = false;
        const raw: string[] = [];
        for (let i = 0; i < answer.rawHeaders.length; i += 2) {
          const name = answer.rawHeaders[i]!.toLowerCase();
          if (name !== 'connection' && name !== 'keep-alive') raw.push(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
        }
        response.writeHead(answer.statusCode!, answer.statusMessage, raw);
        // Event streams: every chunk goes out as it comes.
        response.flushHeaders();
        answer.pipe(response);
        answer.on('error', () => response.destroy());
      },
    );
    upstream.on('error', () => {
      // An instance that answered early (413) and closed while the body was still coming: its answer stands.
      if (answered) return drain();
      if (response.headersSent) response.destroy();
      else response.writeHead(502, { 'content-type': 'text/plain' }).end('proxy: instance unreachable');
    });
    // The client went away (an SSE reader stopped): so does the request to the instance.
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      for (const agent of agents) agent.destroy();
    },
  };
}
