// Podman and podman-compose for the image lane (tests/image/): every call with execFile (no shell),
// a time bound and bounded output. The flags this machine needs (docs/decisions.md#the-container-image)
// are added here, never baked into the image or the compose file.

import { execFile } from 'node:child_process';
import { createServer } from 'node:net';

/** Global flags: runc and cgroupfs (no systemd in the CI machine). */
export const PODMAN_GLOBAL = ['--runtime', 'runc', '--cgroup-manager=cgroupfs'];
/** This machine's hard limits are lower than podman's defaults. */
export const PODMAN_LIMITS = ['--ulimit', 'nofile=20000:20000', '--ulimit', 'nproc=1024:1024'];

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program; resolves with its exit code and output (never rejects for a non-zero exit). */
export function run(program: string, args: string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      program,
      args,
      { timeout: options.timeoutMs ?? 120_000, maxBuffer: 32 * 1024 * 1024, env: options.env ?? process.env, cwd: options.cwd, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(new Error(`${program} ${args.join(' ')}: ${error.message}\n${stderr}`));
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}

/** podman with the global flags; throws with its output unless it exits 0. */
export async function podman(args: string[], timeoutMs = 120_000): Promise<string> {
  const result = await run('podman', [...PODMAN_GLOBAL, ...args], { timeoutMs });
  if (result.code !== 0) throw new Error(`podman ${args.join(' ')} exited ${result.code}: ${result.stderr.slice(-4000)}`);
  return result.stdout.trim();
}

/** Whether podman runs here at all (the lane's tests skip, saying so, where it does not). */
export async function podmanMissing(): Promise<string | undefined> {
  try {
    const result = await run('podman', [...PODMAN_GLOBAL, 'info', '--format', '{{.Host.OCIRuntime.Name}}'], { timeoutMs: 30_000 });
    return result.code === 0 ? undefined : `podman info failed: ${result.stderr.trim().slice(0, 200)}`;
  } catch (error) {
    return `podman is not installed (${(error as Error).message.split('\n')[0]})`;
  }
}

/** A free loopback port (the kernel's pick; closed again before it is handed out). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** An image's size in MB (as `podman images` counts it: all its layers, uncompressed). */
export async function imageSizeMb(image: string): Promise<number> {
  return Math.round(Number(await podman(['image', 'inspect', '--format', '{{.Size}}', image])) / 1e6);
}

/** The request log lines (pino JSON, msg "request") of a container; request_id is the caller's X-Request-Id when it sent one. */
export async function requestLines(container: string): Promise<{ path: string; status: number; request_id?: string }[]> {
  const result = await run('podman', [...PODMAN_GLOBAL, 'logs', container]);
  return `${result.stdout}\n${result.stderr}`
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; path: string; status: number; request_id?: string })
    .filter((line) => line.msg === 'request');
}
