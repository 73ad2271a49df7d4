// Composition root: builds every collaborator from the Config and wires them together.
// createApp(config, overrides) returns { listen, close }; tests pass collaborators in.
// This file keeps the order of start-up and of shutdown; each area is wired in wiring/:
// state.ts (stores, accounts, admin token, documents), rendering.ts (signing, guard, Chromium,
// LibreOffice, output steps), services.ts (every service), background.ts (batches, webhooks,
// retention sweeper, hot folder), operations.ts (the HTTP operation list), listener.ts (the socket).

import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdir } from 'node:fs/promises';
import type { Config } from './config.ts';
import { createLogger } from './logger.ts';
import type { Renderer } from './render/index.ts';
import { lockDataDir, type DataDirLock } from './stores/data-dir-lock.ts';
import { removeDiscoveryFile } from './stores/discovery-file.ts';
import { startTelemetry, type Telemetry } from './telemetry/otel.ts';
import { startBackground } from './wiring/background.ts';
import { type AppOverrides, SERVICE_VERSION, type Wiring } from './wiring/context.ts';
import { Listener } from './wiring/listener.ts';
import { createHttp } from './wiring/operations.ts';
import { startRendering } from './wiring/rendering.ts';
import { wireServices } from './wiring/services.ts';
import { openState } from './wiring/state.ts';

export { SERVICE_VERSION, type AppOverrides, type TokenTerminal } from './wiring/context.ts';

export interface App {
  readonly config: Config;
  readonly renderer: Renderer;
  /** The admin token in force (ADMIN_TOKEN or DATA_DIR/admin-token), for the desktop shell's handoff. */
  readonly adminToken: string;
  /** Starts listening (on config.port unless told another); resolves with the base URL. */
  listen(port?: number): Promise<string>;
  /** Stops accepting, finishes in-flight renders (up to SHUTDOWN_TIMEOUT_MS), closes Chromium. */
  close(): Promise<void>;
}

export async function createApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  const log = overrides.log ?? createLogger(config.logLevel);
  await mkdir(config.dataDir, { recursive: true });
  // One owner per data folder: a second server or CLI writer refuses, naming this process. With
  // DATABASE_URL the folder still holds this instance's admin token, discovery file and Chromium work files.
  const lock = await lockDataDir(config.dataDir, 'server');
  // OpenTelemetry only with an endpoint: without one no SDK is registered and tracing costs nothing.
  const telemetry = config.otelEndpoint
    ? startTelemetry({
        endpoint: config.otelEndpoint,
        metricIntervalMs: config.otelMetricIntervalMs,
        version: SERVICE_VERSION,
        instance: `${hostname()}:${process.pid}`,
      })
    : undefined;
  try {
    return await openApp({ config, overrides, log }, lock, telemetry);
  } catch (error) {
    await telemetry?.shutdown();
    await lock.release();
    throw error;
  }
}

async function openApp(wiring: Wiring, lock: DataDirLock, telemetry: Telemetry | undefined): Promise<App> {
  const { config } = wiring;
  // Stores and accounts first: a bad PLANS_FILE or data folder stops start-up before Chromium is launched.
  const state = await openState(wiring);
  // Signing, then the egress proxy, then Chromium pointed at it, then LibreOffice.
  const rendering = await startRendering(wiring, state, telemetry);
  const services = wireServices(wiring, state, rendering);
  // Interrupted batches are queued again and expired records swept before anything is served.
  const background = await startBackground(wiring, state, rendering, services);
  const listener = new Listener(createHttp(wiring, state, rendering, services, background), config, lock);

  const { stores } = state;
  const { renderer, office, proxy } = rendering;
  const { activity, events, versions } = services;
  const { batches, sweeper, hotFolder } = background;
  let closing: Promise<void> | undefined;
  return {
    config,
    renderer,
    adminToken: state.adminToken,
    listen: (port = config.port) => listener.listen(port),
    close() {
      closing ??= (async () => {
        const { server } = listener;
        const stopped = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
        server?.closeIdleConnections();
        const deadline = Date.now() + config.shutdownTimeoutMs;
        // A step that fails is logged and the rest still run: the stores must flush and the
        // listeners and the lock must go even when, say, a LibreOffice profile cannot be removed.
        const failures: unknown[] = [];
        const step = async (what: string, work: () => Promise<unknown> | unknown) => {
          try {
            await work();
          } catch (error) {
            failures.push(error);
            wiring.log.error({ err: error, step: what }, 'a shutdown step failed; shutting down the rest');
          }
        };
        // Event streams end and the batch worker hands out nothing more; items the closing
        // renderer turns away stay on disk for the next start.
        activity.close();
        events.close();
        batches.stopTaking();
        await step('discovery file', () => removeDiscoveryFile(config.dataDir, process.pid));
        // A file cut short stays claimed in processing/ for the next start.
        const hotFolderStopped = hotFolder?.stop();
        await Promise.all([step('renderer', () => renderer.close(config.shutdownTimeoutMs)), step('office', () => office.close())]);
        await step('template references', () => versions.idle());
        // A render that has just ended still has its response to write (usage, storage, headers).
        while (listener.answering > 0 && Date.now() < deadline) await sleep(20);
        await step('hot folder', () => hotFolderStopped);
        await step('sweeper', () => sweeper.stop());
        await step('batches', () => batches.close());
        await step('egress proxy', () => proxy?.close());
        server?.closeAllConnections();
        await stopped;
        await step('stores', () => stores.close());
        await step('telemetry', () => telemetry?.shutdown());
        await step('data folder lock', () => lock.release());
        if (failures.length > 0) throw failures[0];
      })();
      return closing;
    },
  };
}
