// Starts the real server as a child process (npm start's entry) for the bench, with a temporary
// DATA_DIR, an admin token and a plan big enough for the run, and an API key when accounts exist.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

export interface ServiceProcess {
  url: string;
  pid: number;
  key: string | undefined;
  adminToken: string;
  browserVersion: string;
  dataDir: string;
  render(body: string): Promise<Response>;
  stop(): Promise<void>;
}

export async function startServiceProcess(options: { chromePath: string; env?: Record<string, string> }): Promise<ServiceProcess> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-data-'));
  const plansFile = path.join(dataDir, 'plans.json');
  await writeFile(
    plansFile,
    JSON.stringify([{ id: 'bench', name: 'Bench', monthly_documents: 100_000_000, retention: '1d', batch_max_items: 250, concurrency: 64 }]),
  );
  const adminToken = `bench-admin-${process.pid}-${Date.now()}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      CHROME_PATH: options.chromePath,
      ADMIN_TOKEN: adminToken,
      PLANS_FILE: plansFile,
      RENDER_QUEUE_SIZE: '1000',
      LOG_LEVEL: 'info',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const { url, browserVersion } = await waitForListening(child);
  let key: string | undefined;
  const created = await fetch(`${url}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', plan: 'bench' }),
  });
  if (created.status === 201) key = ((await created.json()) as { key: string }).key;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };
  return {
    url,
    pid: child.pid!,
    key,
    adminToken,
    browserVersion,
    dataDir,
    render: (body) => fetch(`${url}/v1/pdf`, { method: 'POST', headers, body }),
    async stop() {
      await stopDetached(child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Reads a spawned server's log lines (its stdout) until it logs "listening": its URL, and the
 * browser version it logged on the way. Rejects if the server exits first.
 */
export function waitForListening(child: ChildProcess): Promise<{ url: string; browserVersion: string }> {
  const lines = readline.createInterface({ input: child.stdout! });
  let browserVersion = '';
  // The listener stays after "listening": requests log one line each, and reading on keeps the pipe from filling.
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string; version?: string };
        if (entry.msg === 'browser launched' && entry.version) browserVersion = entry.version;
        if (entry.msg === 'listening' && entry.url) resolve({ url: entry.url, browserVersion });
      } catch {
        // Not a log line.
      }
    });
  });
}

/** Stops a server spawned detached: SIGTERM, up to 15 s to exit, then SIGKILL to its whole process group. */
export async function stopDetached(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
