// Composition root: builds every collaborator from the Config and wires them together.
// createApp(config, overrides) returns { listen, close }; tests pass collaborators in.

import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { mkdir } from 'node:fs/promises';
import type { RequestHandler } from 'express';
import type { Config } from './config.ts';
import { ApiError } from './errors.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMetrics } from './metrics.ts';
import { createAddressPolicy } from './guard/address-policy.ts';
import type { Resolver } from './guard/url-check.ts';
import { createHttpApp } from './http/server.ts';
import { healthOperations } from './http/routes/health.ts';
import { renderOperations } from './http/routes/render.ts';
import { startHeadlessRenderer, type Renderer } from './render/index.ts';
import { HealthService } from './services/health.ts';
import { RenderService } from './services/render.ts';

export const SERVICE_VERSION = '0.1.0';

export interface AppOverrides {
  log?: Logger;
  /** Replaces DNS resolution for the url guard (tests). */
  resolve?: Resolver;
}

export interface App {
  readonly config: Config;
  readonly renderer: Renderer;
  /** Starts listening; resolves with the base URL. */
  listen(): Promise<string>;
  /** Stops accepting, finishes in-flight renders (up to SHUTDOWN_TIMEOUT_MS), closes Chromium. */
  close(): Promise<void>;
}

export async function createApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  const log = overrides.log ?? createLogger(config.logLevel);
  await mkdir(config.dataDir, { recursive: true });
  const metrics = createMetrics();
  const renderer = await startHeadlessRenderer({
    chromePath: config.chromePath,
    fontsDir: config.fontsDir,
    workDir: config.dataDir,
    recycleAfter: config.browserRecycleAfter,
    concurrency: config.renderConcurrency,
    queueSize: config.renderQueueSize,
    queueTimeoutMs: config.renderQueueTimeoutMs,
    log,
    hooks: { onRender: metrics.onRender, onBrowserRestart: metrics.onBrowserRestart },
  });
  metrics.watchRenderer(() => renderer.stats());

  const policy = createAddressPolicy(config.allowHosts, config.denyHosts);
  const renderService = new RenderService({ renderer, policy, resolve: overrides.resolve });
  const health = new HealthService(renderer);

  // Accounts arrive as a separate layer in front of the routes (issue 3); until then every
  // caller is let through and the admin API is closed.
  const openDoor: RequestHandler = (_req, _res, next) => next();
  const closedDoor: RequestHandler = (_req, _res, next) => next(new ApiError('unauthorized', 'The admin API is not available.'));

  const http = createHttpApp({
    operations: [...healthOperations(health, SERVICE_VERSION), ...renderOperations(renderService)],
    auth: { api_key: openDoor, admin: closedDoor },
    log,
    version: SERVICE_VERSION,
    docs: config.docsEnabled,
    metrics: config.metricsEnabled ? metrics.registry : undefined,
  });

  let server: Server | undefined;
  let closing: Promise<void> | undefined;
  return {
    config,
    renderer,
    listen() {
      return new Promise((resolve, reject) => {
        server = http.listen(config.port, config.host, () => {
          const { port } = server!.address() as AddressInfo;
          const host = config.host.includes(':') ? `[${config.host}]` : config.host;
          resolve(`http://${host}:${port}`);
        });
        server.once('error', reject);
      });
    },
    close() {
      closing ??= (async () => {
        const stopped = server ? new Promise<void>((resolve) => server!.close(() => resolve())) : Promise.resolve();
        server?.closeIdleConnections();
        await renderer.close(config.shutdownTimeoutMs);
        server?.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}
