// Starts and stops the Quire server inside the desktop app's main process: createApp with the
// page source it is given, listening on 127.0.0.1 (the configured port; else the remembered one,
// or a free one when that is taken), ready
// once GET /health answers; stopped by draining renders within a time cap. No Electron here.

import { createApp, type App, type AppOverrides } from '../server/src/app.ts';
import type { Config } from '../server/src/config.ts';

/** Extra time past SHUTDOWN_TIMEOUT_MS for closing the page source, the stores and the server. */
export const SHUTDOWN_GRACE_MS = 5_000;

export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:49152. */
  readonly url: string;
  readonly adminToken: string;
  readonly dataDir: string;
  /** The port it listens on (for the next launch to ask for again). */
  readonly port: number;
  /** Stops taking work, finishes in-flight renders, closes everything; resolves within the cap. */
  stop(): Promise<'stopped' | 'timed-out'>;
}

export interface ServerHostDeps {
  createApp: (config: Config, overrides: AppOverrides) => Promise<App>;
  fetch: typeof fetch;
  healthTimeoutMs: number;
  /** When config.port is taken: listen on a free one instead (a remembered port, not a configured one). */
  freePortIfTaken: boolean;
}

const defaultDeps: ServerHostDeps = { createApp, fetch: (...args) => fetch(...args), healthTimeoutMs: 60_000, freePortIfTaken: false };

/** The port to listen on: the configured one, else 0 (the system picks a free one). */
export function choosePort(configured: number | undefined): number {
  return configured ?? 0;
}

export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
}

/** Creates the app, listens on 127.0.0.1 and waits until /health says ok. */
export async function startServerHost(config: Config, overrides: AppOverrides, deps: Partial<ServerHostDeps> = {}): Promise<RunningServer> {
  const { createApp: create, fetch: fetchFn, healthTimeoutMs, freePortIfTaken } = { ...defaultDeps, ...deps };
  const app = await create({ ...config, host: '127.0.0.1' }, overrides);
  let url: string;
  try {
    url = await app.listen().catch((error: NodeJS.ErrnoException) => {
      if (error?.code !== 'EADDRINUSE') throw error;
      if (freePortIfTaken && config.port !== 0) {
        overrides.log?.warn(
          { port: config.port },
          'the port of the last launch is taken: listening on a free one (local tools find it in DATA_DIR/server.json)',
        );
        return app.listen(0);
      }
      throw new PortInUseError(`port ${config.port} on 127.0.0.1 is in use: set another PORT in the config file, or remove it to pick a free port`);
    });
    await waitForHealth(url, fetchFn, healthTimeoutMs);
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  let stopping: Promise<'stopped' | 'timed-out'> | undefined;
  return {
    url,
    adminToken: app.adminToken,
    dataDir: config.dataDir,
    port: Number(new URL(url).port),
    stop: () => (stopping ??= within(app.close(), config.shutdownTimeoutMs + SHUTDOWN_GRACE_MS)),
  };
}

/** Polls GET /health until it answers 200; throws after timeoutMs with the last answer. */
export async function waitForHealth(url: string, fetchFn: typeof fetch, timeoutMs: number, intervalMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    try {
      const response = await fetchFn(`${url}/health`, { signal: AbortSignal.timeout(Math.max(1, Math.min(5_000, deadline - Date.now()))) });
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() >= deadline) throw new Error(`the server did not become healthy within ${timeoutMs} ms (${last})`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Resolves when work does, or with 'timed-out' after capMs: quitting must not hang on a stuck render. */
export function within(work: Promise<void>, capMs: number): Promise<'stopped' | 'timed-out'> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<'timed-out'>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), capMs);
  });
  return Promise.race([work.then(() => 'stopped' as const), cap]).finally(() => clearTimeout(timer));
}
