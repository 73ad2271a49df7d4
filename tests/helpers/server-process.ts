// Runs the real headless entry as a child process on port 0, for tests that kill it (kill -9) or
// read what it prints: the compiled server, as `npm start` runs it (compiled-server.ts; each start
// skips ~1.6 s of CPU compiling the TypeScript through tsx). Chromium processes it launched are ended too.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { compiledServerEntry, REPO_ROOT } from './compiled-server.ts';

export { REPO_ROOT };

export interface ServerProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** Every JSON log line printed so far. */
  logs: Record<string, unknown>[];
  /** SIGKILL the server at once (no shutdown), then make sure its Chromium is gone. */
  crash(): Promise<void>;
}

/**
 * How long a server process may take to listen: a guard against a start that hangs, not a measure
 * of speed. A start costs ~4 s of CPU (Node, Chromium, the warm-up render); at load 90 on 2 cores
 * one took past 60 s (Playwright's workers), at load 28 another (several-instances-takeover).
 */
export const SERVER_START_DEADLINE_MS = 170_000;

/**
 * Starts the compiled server (or node with `entry`) with env on top of ours; resolves once it listens.
 * A server not listening within startMs is killed, and that is the error.
 */
export async function startServerProcess(env: Record<string, string>, entry?: string[], startMs = SERVER_START_DEADLINE_MS): Promise<ServerProcess> {
  const child = spawn(process.execPath, entry ?? (await compiledServerEntry()), {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start within ${startMs / 1000} s: ${stderr}`));
    }, startMs);
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push(entry);
          if (typeof entry.url === 'string') {
            clearTimeout(timer);
            resolve(entry.url);
          }
        } catch {
          // not a log line
        }
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}: ${stderr}`));
    });
  });
  const browserPids = () => logs.filter((entry) => entry.msg === 'browser launched' && typeof entry.pid === 'number').map((entry) => entry.pid as number);
  return {
    url,
    child,
    logs,
    async crash() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
      // Chromium would leave when its pipe closes, after a second or two; a crash test restarting
      // dozens of times ends its process group at once instead (as a power cut would).
      for (const pid of browserPids()) {
        if (isRunning(pid)) {
          try {
            process.kill(-pid, 'SIGKILL');
          } catch {
            // gone meanwhile
          }
        }
        const deadline = Date.now() + 5_000;
        while (isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

/** Runs the compiled server expecting it to refuse to start; resolves with its exit code and output. */
export async function runServerProcess(env: Record<string, string>, timeoutMs = 30_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const entry = await compiledServerEntry();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, entry, {
      cwd: REPO_ROOT,
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not exit: ${stdout} ${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A killed Chromium whose parent (the server) is gone stays a zombie until init reaps it: it is dead.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/**
 * A starter for crash tests: every server it starts uses the same environment (one DATA_DIR, so
 * a restart finds what the killed one left), and all of them are SIGKILLed when the test ends.
 */
export function serverStarter(
  t: { after: (fn: () => Promise<void>) => void },
  env: Record<string, string>,
  entry?: () => Promise<string[]>,
): () => Promise<ServerProcess> {
  const running: ServerProcess[] = [];
  t.after(() => Promise.all(running.map((server) => server.crash())).then(() => undefined));
  return async () => {
    const server = await startServerProcess(env, entry ? await entry() : undefined);
    running.push(server);
    return server;
  };
}

/** A JSON call to a server process with a bearer token. */
export function callServer(server: ServerProcess, method: string, route: string, token: string, body?: unknown): Promise<Response> {
  return fetch(server.url + route, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  });
}
