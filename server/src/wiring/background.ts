// Wiring of background work: the batch service with its worker and webhook deliverer, the
// retention sweeper, and the WATCH_DIR hot folder. A new timer or queue starts here.

import type { AddressPolicy } from '../guard/address-policy.ts';
import { hotFolderRequests } from '../http/hot-folder-requests.ts';
import { BatchWorker } from '../queue/batch-worker.ts';
import { HotFolder, type Retry } from '../queue/hot-folder.ts';
import { startRetentionSweeper } from '../queue/retention-sweeper.ts';
import { WebhookDeliverer } from '../queue/webhook-delivery.ts';
import { RendererBusyError, RendererClosedError, RendererCrashedError } from '../render/errors.ts';
import { openBatchesService } from '../services/batches/batches.ts';
import type { Wiring } from './context.ts';
import type { Rendering } from './rendering.ts';
import type { Services } from './services.ts';
import type { State } from './state.ts';

export type Background = Awaited<ReturnType<typeof startBackground>>;

export async function startBackground({ config, overrides, log }: Wiring, { stores, accounts, documents }: State, rendering: Rendering, services: Services) {
  const { policy, resolve } = rendering;
  const { events, receipts, render, transforms } = services;
  // Batches interrupted by a stop or crash are settled and queued again before anything is served.
  const batches = await openBatchesService({
    transform: transforms,
    store: stores.batches,
    render,
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
    // (services/batches/items.ts), so handing out more than the slots showed items rendering that
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
        ...hotFolderRequests({ render, transforms }),
        accountById: (keyId) => accounts.keys.accountById(keyId),
        retryOf,
        log,
        intervalMs: overrides.hotFolderIntervalMs,
        now: overrides.now,
      })
    : undefined;
  return { batches, sweeper, hotFolder };
}

/** Webhooks with NETWORK_GUARD off: any address (trusted content and benchmarks only). */
const ANY_ADDRESS: AddressPolicy = { allows: () => true, decide: () => ({ allowed: true, reason: 'NETWORK_GUARD off' }) };

/** Hot folder: a busy or stopping renderer is no fault of the file; a crash may be (tried a few times). */
function retryOf(error: unknown): Retry {
  if (error instanceof RendererBusyError || error instanceof RendererClosedError) return 'always';
  if (error instanceof RendererCrashedError) return 'few';
  return 'never';
}
