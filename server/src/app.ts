// Composition root: builds every collaborator from the Config and wires them together.
// createApp(config, overrides) returns { listen, close }; tests pass collaborators in.

import type { AddressInfo } from 'node:net';
import type { Server, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdir } from 'node:fs/promises';
import type { Config } from './config.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMetrics } from './metrics.ts';
import { startTelemetry, type Telemetry } from './telemetry/otel.ts';
import { createAddressPolicy } from './guard/address-policy.ts';
import { startEgressProxy } from './guard/egress-proxy.ts';
import { createDnsResolver, type Resolver } from './guard/dns-resolver.ts';
import { createHttpApp } from './http/server.ts';
import { healthOperations } from './http/routes/health.ts';
import { renderOperations } from './http/routes/render.ts';
import { mergeOperations } from './http/routes/merge.ts';
import { transformOperations } from './http/routes/transform.ts';
import { presetOperations } from './http/routes/presets.ts';
import { adminPdfTransformOperations } from './http/routes/admin-pdf-transform.ts';
import { TransformService } from './services/transform.ts';
import { PresetsService } from './services/presets.ts';
import { MergeService } from './services/merge.ts';
import { pdfToolOperations } from './http/routes/pdf-tools.ts';
import { PdfToolsService } from './services/pdf-tools.ts';
import { imageOperations } from './http/routes/image.ts';
import { ImageService } from './services/image.ts';
import { startRenderer, type PageSourceFactory, type Renderer } from './render/index.ts';
import { HealthService } from './services/health.ts';
import { OutputSteps } from './services/output-steps.ts';
import { AttachmentsStep } from './services/attachments-step.ts';
import { openSigning } from './services/signing.ts';
import { certificateOperations } from './http/routes/certificates.ts';
import { PdfAStep } from './services/pdf-a-step.ts';
import { RenderService } from './services/render.ts';
import { generateAdminToken, hashSecret } from './accounts/keys.ts';
import { loadOrCreateAdminToken } from './stores/admin-token.ts';
import { lockDataDir, type DataDirLock } from './stores/data-dir-lock.ts';
import { openKeysService } from './services/keys.ts';
import { adminAuth, apiKeyAuth } from './http/middleware/auth.ts';
import { adminKeyOperations } from './http/routes/admin-keys.ts';
import { PlaygroundService } from './services/playground.ts';
import { playgroundOperations } from './http/routes/playground.ts';
import { uiRoutes } from './http/routes/ui.ts';
import { openStores } from './stores/open-stores.ts';
import { TemplateAssetsService } from './services/template-assets.ts';
import { TemplateVersionsService } from './services/template-versions.ts';
import { templateAssetOperations } from './http/routes/template-assets.ts';
import { templateVersionOperations } from './http/routes/template-versions.ts';
import { TemplateArchiveService } from './services/template-archive.ts';
import { templateArchiveOperations } from './http/routes/template-archive.ts';
import { DocumentsService } from './services/documents.ts';
import { TemplatesService } from './services/templates.ts';
import { startRetentionSweeper } from './queue/retention-sweeper.ts';
import { documentOperations } from './http/routes/documents.ts';
import { templateOperations } from './http/routes/templates.ts';
import { adminDocumentOperations } from './http/routes/admin-documents.ts';
import { adminTemplateOperations } from './http/routes/admin-templates.ts';
import { openBatchesService } from './services/batches.ts';
import { batchOperations } from './http/routes/batches.ts';
import { BatchWorker } from './queue/batch-worker.ts';
import { WebhookDeliverer } from './queue/webhook-delivery.ts';
import type { AddressPolicy } from './guard/address-policy.ts';
import { adminBatchOperations } from './http/routes/admin-batches.ts';
import { adminEventOperations } from './http/routes/admin-events.ts';
import { HotFolder, type Retry } from './queue/hot-folder.ts';
import { hotFolderRequests } from './http/hot-folder-requests.ts';
import { RendererBusyError, RendererClosedError, RendererCrashedError } from './render/errors.ts';
import { removeDiscoveryFile, writeDiscoveryFile } from './stores/discovery-file.ts';
import { ReceiptsService } from './services/receipts.ts';
import { ActivityService } from './services/activity.ts';
import { receiptOperations } from './http/routes/receipts.ts';
import { hostname } from 'node:os';
import { startOffice } from './office/start-office.ts';
import { OfficeService } from './services/office.ts';
import { OfficeConverter } from './services/office-converter.ts';
import { officeOperations } from './http/routes/office.ts';

export const SERVICE_VERSION = '0.1.0';

/** How long an idle keep-alive connection stays open: longer than a load balancer's 60 s. */
const KEEP_ALIVE_MS = 65_000;

export interface AppOverrides {
  log?: Logger;
  /** Replaces DNS resolution for the network guard: url check and egress proxy (tests). */
  resolve?: Resolver;
  /** The clock for monthly usage, document retention and record times (tests: month rollover, expiry). */
  now?: () => Date;
  /** The built admin/playground UI (default dist/ui; a packaged desktop app passes its own). */
  uiDir?: string;
  /** Builds the page source renders run on instead of the headless Chromium (the desktop app: Electron's own). */
  pageSource?: PageSourceFactory;
  /** How often the hot folder looks at WATCH_DIR/in (default 1 s; tests go faster). */
  hotFolderIntervalMs?: number;
  /** Where a generated admin token is printed (default: stderr, when it is a terminal). */
  terminal?: TokenTerminal;
  /** Office conversion: false switches it off whatever is installed (tests of the 501 answer). */
  office?: false;
}

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
    return await openApp(config, overrides, log, lock, telemetry);
  } catch (error) {
    await telemetry?.shutdown();
    await lock.release();
    throw error;
  }
}

async function openApp(config: Config, overrides: AppOverrides, log: Logger, lock: DataDirLock, telemetry: Telemetry | undefined): Promise<App> {
  const warn = (details: Record<string, unknown>, message: string) => log.warn(details, message);
  // Where state lives is decided here, once: DATA_DIR files, or PostgreSQL when DATABASE_URL is set.
  const stores = await openStores({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    now: overrides.now,
    warn,
    error: (details, message) => log.error(details, message),
    batchLeaseSeconds: config.batchLeaseSeconds,
  });
  if (stores.kind === 'postgresql')
    log.warn(
      'DATABASE_URL: keys, usage, templates (versions, assets), documents, batches (leased per instance) and admin events are shared through PostgreSQL',
    );
  // Accounts first: a bad PLANS_FILE or data folder stops start-up before Chromium is launched.
  const accounts = await openKeysService({ store: stores.keys, meter: stores.usage, plansFile: config.plansFile, now: overrides.now }).catch(
    async (error: unknown) => {
      await stores.close();
      throw error;
    },
  );
  const adminToken = await adminTokenFor(config, log, overrides.terminal ?? process.stderr);
  for (const key of await accounts.keys.keysOnUnknownPlans()) {
    log.warn({ key_id: key.id, plan: key.planId }, 'key is on a plan that is not configured: its requests get 403 until it is moved to another plan');
  }
  const documents = new DocumentsService({ store: stores.documents, tombstoneSeconds: config.tombstoneDays * 86_400, now: overrides.now });
  // Certificates with sealed keys, the sign step and verify; a TSA_URL off TSA_ALLOW_HOSTS stops start-up here.
  const signing = await openSigning(config, stores.certificates, documents, overrides.now);
  const templateStore = stores.templates;
  const metrics = createMetrics(telemetry?.meter);
  const policy = createAddressPolicy(config.allowHosts, config.denyHosts);
  // One resolver (c-ares, time-limited, cached) for the proxy, url checks and webhooks.
  const resolve = overrides.resolve ?? createDnsResolver({ timeoutMs: config.dnsTimeoutMs });
  // The guard's egress proxy starts before Chromium, which is launched pointing at it.
  const proxy = config.networkGuard ? await startEgressProxy({ policy, resolve, log, onDecision: metrics.onEgress }) : undefined;
  if (!proxy) log.warn('NETWORK_GUARD is off: pages may reach any address, private ones included (trusted content and benchmarks only)');
  const renderer = await startRenderer(
    {
      chromePath: config.chromePath,
      fontsDir: config.fontsDir,
      workDir: config.dataDir,
      recycleAfter: config.browserRecycleAfter,
      concurrency: config.renderConcurrency,
      queueSize: config.renderQueueSize,
      queueTimeoutMs: config.renderQueueTimeoutMs,
      proxyServer: proxy?.url,
      log,
      hooks: {
        onRender: metrics.onRender,
        onBrowserRestart: metrics.onBrowserRestart,
        onRetry: metrics.onRenderRetry,
        onRenderPathFallback: metrics.onRenderPathFallback,
      },
    },
    overrides.pageSource,
  ).catch(async (error: unknown) => {
    await proxy?.close();
    await stores.close();
    throw error;
  });
  metrics.watchRenderer(() => renderer.stats());
  // Optional: without LibreOffice the office route answers 501 office_unavailable.
  const office = startOffice(config, log, overrides.office);
  const officeConverter = new OfficeConverter(office.availability, renderer);
  // Versions render their reference after each save; the versions service needs the templates one, hence the late binding.
  let versions: TemplateVersionsService | undefined;
  const versionStore = stores.templateVersions;
  const assetStore = stores.templateAssets;
  const templates = new TemplatesService({
    store: templateStore,
    renderer,
    keys: accounts.keys,
    versions: versionStore,
    assets: assetStore,
    onVersion: (version) => versions?.makeReference(version),
    now: overrides.now,
  });
  versions = new TemplateVersionsService({ store: versionStore, templates, renderer, log });
  const assets = new TemplateAssetsService({ store: assetStore, templates, now: overrides.now });

  const events = stores.events;
  // Names this instance in the Activity screen (several instances share one event stream on PostgreSQL).
  const instance = `${hostname()}:${process.pid}`;
  const receipts = new ReceiptsService({
    store: stores.receipts,
    events,
    retentionHours: config.receiptRetentionHours,
    refusalFor: proxy?.refusalFor,
    instance,
    now: overrides.now,
    warn,
  });
  const activity = new ActivityService({ events, instance, stats: () => renderer.stats(), now: overrides.now });
  const onUsage = (keyId: string, usage: { month: string; used: number; limit: number; planId: string }) =>
    events.publish('usage.changed', { key_id: keyId, month: usage.month, used: usage.used, limit: usage.limit, plan: usage.planId });
  // The final steps every output takes, in their order: services/output-steps.ts.
  const outputSteps = new OutputSteps([new AttachmentsStep({ documents }), new PdfAStep({ veraPdf: config.veraPdfPath || undefined }), signing.step]);
  const renderService = new RenderService({
    renderer,
    meter: accounts.meter,
    commit: stores.renderCommit,
    policy,
    resolve,
    templates,
    documents,
    guardEnabled: config.networkGuard,
    office: officeConverter,
    onUsage,
    receipts,
    outputSteps,
  });
  const presets = new PresetsService(stores.presets);
  const transforms = new TransformService({
    documents,
    render: renderService,
    receipts,
    drawer: renderer,
    presetSteps: (keyId, id) => presets.steps(keyId, id),
  });
  // Batches interrupted by a stop or crash are settled and queued again before anything is served.
  const batches = await openBatchesService({
    transform: transforms,
    store: stores.batches,
    render: renderService,
    keys: accounts.keys,
    meter: accounts.meter,
    documents,
    events,
    policy,
    resolve,
    guardEnabled: config.networkGuard,
    renderConcurrency: config.renderConcurrency,
    backlog: {
      itemsPerKey: config.batchQueueItemsPerKey,
      items: config.batchQueueItems,
      bytesPerKey: config.batchQueueBytesPerKey,
      bytes: config.batchQueueBytes,
    },
    // One item per render slot: an item is "rendering" on disk from the moment it is handed out
    // (services/batch-items.ts), so handing out more than the slots showed items rendering that
    // only waited (issue 30: eight "rendering" with two slots). A slot freed waits for the
    // item's state write (an fsync, a few ms) before the next item takes it.
    worker: new BatchWorker({ inFlight: config.renderConcurrency, log }),
    leaseTickMs: (config.batchLeaseSeconds * 1000) / 3,
    deliverer: new WebhookDeliverer({
      store: stores.batches,
      policy: config.networkGuard ? policy : ANY_ADDRESS,
      resolve,
      attempts: config.webhookAttempts,
      retryBaseMs: config.webhookRetryBaseMs,
      timeoutMs: config.webhookTimeoutMs,
      events,
      log,
      now: overrides.now,
    }),
    log,
    now: overrides.now,
  });
  // Documents past retention and completed batch records past expiry: swept once before serving, then on a timer.
  const sweeper = await startRetentionSweeper({
    jobs: {
      documents: async () => {
        const { expired, forgotten } = await documents.sweep();
        return { expired, tombstones_forgotten: forgotten };
      },
      batches: async () => ({ batches_pruned: await batches.prune() }),
      receipts: async () => ({ receipts_pruned: await receipts.prune() }),
    },
    intervalSeconds: config.retentionSweepSeconds,
    log,
  });
  // WATCH_DIR: files dropped in render (or, PDFs, transform) as the key of its settings.json, one at a time in the background.
  const hotFolder = config.watchDir
    ? await HotFolder.start({
        dir: config.watchDir,
        ...hotFolderRequests({ render: renderService, transforms }),
        accountById: (keyId) => accounts.keys.accountById(keyId),
        retryOf,
        log,
        intervalMs: overrides.hotFolderIntervalMs,
        now: overrides.now,
      })
    : undefined;
  const health = new HealthService(renderer, officeConverter);
  const playground = new PlaygroundService({
    renderer,
    sources: renderService,
    rates: stores.rateLimits,
    ratePerMinute: config.playgroundRateLimit,
    concurrency: config.playgroundConcurrency,
    renderSlots: config.renderConcurrency,
    maxTimeoutMs: config.playgroundMaxTimeoutMs,
    receipts,
    outputSteps,
  });

  const http = createHttpApp({
    operations: [
      ...healthOperations(health, SERVICE_VERSION, () => signing.certificates.expiring()),
      ...certificateOperations(signing.certificates, signing.verify),
      ...renderOperations(renderService),
      ...mergeOperations(new MergeService({ renderer, render: renderService, documents, office: officeConverter, receipts })),
      ...transformOperations(transforms),
      ...presetOperations(presets),
      ...adminPdfTransformOperations(transforms, presets, (keyId) => accounts.keys.get(keyId)),
      ...officeOperations(new OfficeService({ converter: officeConverter, render: renderService, documents, receipts }), config.officeMaxUploadBytes),
      ...imageOperations(new ImageService({ renderer, render: renderService, receipts })),
      ...pdfToolOperations(new PdfToolsService({ documents, render: renderService })),
      ...receiptOperations(receipts, activity, config.playgroundEnabled),
      ...templateOperations(templates),
      ...documentOperations(documents),
      ...adminKeyOperations(accounts.keys),
      ...playgroundOperations(playground, config.playgroundEnabled),
      ...adminTemplateOperations(templates, renderService),
      ...templateArchiveOperations(new TemplateArchiveService({ templates, assets })),
      ...templateAssetOperations(assets, 'key'),
      ...templateAssetOperations(assets, 'admin'),
      ...templateVersionOperations(versions, 'key'),
      ...templateVersionOperations(versions, 'admin'),
      ...adminDocumentOperations(documents),
      ...batchOperations(batches),
      ...adminBatchOperations(batches),
      ...adminEventOperations(events),
    ],
    auth: { api_key: apiKeyAuth(accounts.keys, log), admin: adminAuth(hashSecret(adminToken)) },
    log,
    version: SERVICE_VERSION,
    docs: config.docsEnabled,
    trustProxy: config.trustProxy,
    metrics: config.metricsEnabled ? metrics.registry : undefined,
    extra: [uiRoutes(overrides.uiDir)],
  });

  let server: Server | undefined;
  let closing: Promise<void> | undefined;
  // Requests not yet answered: shutdown lets a finished render's response out before cutting connections.
  let answering = 0;
  return {
    config,
    renderer,
    adminToken,
    listen(port = config.port) {
      return new Promise((resolve, reject) => {
        // Express 5 also calls this back with the error when listening fails (a port in use).
        server = http.listen(port, config.host, (error?: Error) => {
          if (error) return reject(error);
          const { port } = server!.address() as AddressInfo;
          const host = config.host.includes(':') ? `[${config.host}]` : config.host;
          const url = `http://${host}:${port}`;
          // Local tools find the server by DATA_DIR/server.json (never the token); the lock names its URL too.
          const info = { base_url: url, port, pid: process.pid, version: SERVICE_VERSION, started_at: new Date().toISOString() };
          Promise.all([writeDiscoveryFile(config.dataDir, info), lock.setUrl(url)]).then(() => resolve(url), reject);
        });
        server.once('error', reject);
        // An idle keep-alive connection is closed by the client or the proxy in front, never by us
        // first: with Node's 5 s a client that reuses a connection just as it times out gets its
        // request cut ("socket hang up"), and load balancers keep idle connections 60 s. close()
        // ends idle connections at once, so this does not slow a shutdown.
        server.keepAliveTimeout = KEEP_ALIVE_MS;
        server.headersTimeout = KEEP_ALIVE_MS + 1_000;
        server.on('request', (_request, response: ServerResponse) => {
          answering++;
          response.once('close', () => answering--);
        });
      });
    },
    close() {
      closing ??= (async () => {
        const stopped = server ? new Promise<void>((resolve) => server!.close(() => resolve())) : Promise.resolve();
        server?.closeIdleConnections();
        const deadline = Date.now() + config.shutdownTimeoutMs;
        // Event streams end and the batch worker hands out nothing more; items the closing
        // renderer turns away stay on disk for the next start.
        activity.close();
        events.close();
        batches.stopTaking();
        await removeDiscoveryFile(config.dataDir, process.pid);
        // A file cut short stays claimed in processing/ for the next start.
        const hotFolderStopped = hotFolder?.stop();
        await Promise.all([renderer.close(config.shutdownTimeoutMs), office.close()]);
        await versions.idle();
        // A render that has just ended still has its response to write (usage, storage, headers).
        while (answering > 0 && Date.now() < deadline) await sleep(20);
        await hotFolderStopped;
        await sweeper.stop();
        await batches.close();
        await proxy?.close();
        server?.closeAllConnections();
        await stopped;
        await stores.close();
        await telemetry?.shutdown();
        await lock.release();
      })();
      return closing;
    },
  };
}

/**
 * docs/operations.md#keys-and-the-admin-token: ADMIN_TOKEN, else generated on first start into DATA_DIR/admin-token (0600) and printed
 * once. The token goes to the terminal only, never through the logger: logs are collected and
 * kept where a secret must not be (issue 11). Without a terminal the log names the file.
 */
async function adminTokenFor(config: Config, log: Logger, terminal: TokenTerminal): Promise<string> {
  if (config.adminToken) return config.adminToken;
  const { token, file, created } = await loadOrCreateAdminToken(config.dataDir, generateAdminToken);
  if (!created) return token;
  if (terminal.isTTY) {
    terminal.write(`\nquire: generated the admin token (shown only this once; also kept in ${file}):\n\n    ${token}\n\n`);
    log.warn({ file }, 'generated the admin token: printed once to the terminal and kept in the file');
  } else {
    log.warn({ file }, 'generated the admin token: read it from the file (it is not written to the log)');
  }
  return token;
}

/** Webhooks with NETWORK_GUARD off: any address (trusted content and benchmarks only). */
const ANY_ADDRESS: AddressPolicy = { allows: () => true, decide: () => ({ allowed: true, reason: 'NETWORK_GUARD off' }) };

/** Hot folder: a busy or stopping renderer is no fault of the file; a crash may be (tried a few times). */
function retryOf(error: unknown): Retry {
  if (error instanceof RendererBusyError || error instanceof RendererClosedError) return 'always';
  if (error instanceof RendererCrashedError) return 'few';
  return 'never';
}

/** Where a generated admin token is shown: the process's terminal, when it has one. */
export interface TokenTerminal {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}
