// Starts the real server as a child process (npm start's entry) for the bench, with a temporary
// DATA_DIR, an admin token and a plan big enough for the run, and an API key when accounts exist.

import { spawn } from 'node:child_process';
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
  const lines = readline.createInterface({ input: child.stdout! });
  let browserVersion = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string; version?: string };
        if (entry.msg === 'browser launched' && entry.version) browserVersion = entry.version;
        if (entry.msg === 'listening' && entry.url) resolve(entry.url);
      } catch {
        // Not a log line.
      }
    });
  });
  // Requests log one line each: keep reading so the pipe never fills.
  lines.on('line', () => undefined);
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
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
