// Several instances of the real server (server/src/main.ts processes, real Chromium) sharing one
// PostgreSQL database, each with a DATA_DIR of its own, and a caller that alternates requests
// between them as a round-robin load balancer would. Every instance is SIGKILLed at the end; a
// failed test prints what each said meanwhile (instance-logs.ts).

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { watchLogs } from './instance-logs.ts';
import { callServer, startServerProcess, type ServerProcess } from './server-process.ts';

type Hook = { after: (fn: () => Promise<void>) => void };

export interface Instances {
  readonly servers: ServerProcess[];
  /** Each instance's DATA_DIR (locked by it), by position. */
  readonly dataDirs: string[];
  /** The next request goes to the next instance in turn. */
  call(method: string, route: string, token: string, body?: unknown): Promise<Response>;
  /** A request to one instance by its position. */
  callOn(instance: number, method: string, route: string, token: string, body?: unknown): Promise<Response>;
}

/** Starts `count` instances on DATABASE_URL with the same settings (env), each its own DATA_DIR. */
export async function startInstances(t: Hook, count: number, databaseUrl: string, env: Record<string, string> = {}): Promise<Instances> {
  const servers: ServerProcess[] = [];
  const folders: string[] = [];
  t.after(async () => {
    await Promise.all(servers.map((server) => server.crash()));
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  });
  // One at a time: the first migrates the schema, the others find it done (either way is safe).
  for (let i = 0; i < count; i++) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), `quire-instance-${i}-`));
    folders.push(dataDir);
    const server = await startServerProcess({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, ...env });
    servers.push(server);
    watchLogs(server, `instance ${i}`);
  }
  let next = 0;
  return {
    servers,
    dataDirs: folders,
    call: (method, route, token, body) => callServer(servers[next++ % servers.length]!, method, route, token, body),
    callOn: (instance, method, route, token, body) => callServer(servers[instance]!, method, route, token, body),
  };
}
