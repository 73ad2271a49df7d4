// Background-work settings: the batch queue and its leases, webhook delivery, the hot folder.
// One part of the settings table config.ts merges into SETTINGS (and prints for --help).

import { integer, setting, text } from './parsers.ts';

export const backgroundSettings = {
  batchQueueItemsPerKey: setting(
    'BATCH_QUEUE_ITEMS_PER_KEY',
    1_000,
    integer(1, 10_000_000),
    'Background batch items one key may have waiting (batches not yet completed); a batch that would go past it: 429 too_many_batches with Retry-After.',
  ),
  batchQueueItems: setting(
    'BATCH_QUEUE_ITEMS',
    20_000,
    integer(1, 100_000_000),
    'Background batch items waiting on the whole server; past it: 503 renderer_busy with Retry-After.',
  ),
  batchQueueBytesPerKey: setting(
    'BATCH_QUEUE_BYTES_PER_KEY',
    64 * 1024 * 1024,
    integer(1024, 2 ** 40),
    'Bytes of stored batch requests one key may have waiting; past it: 429 too_many_batches.',
  ),
  batchQueueBytes: setting(
    'BATCH_QUEUE_BYTES',
    1024 * 1024 * 1024,
    integer(1024, 2 ** 44),
    'Bytes of stored batch requests waiting on the whole server; past it: 503 renderer_busy with Retry-After.',
  ),
  batchLeaseSeconds: setting(
    'BATCH_LEASE_SECONDS',
    15,
    integer(1, 3_600),
    'PostgreSQL: a batch whose instance has not renewed its lease for this long is adopted by another (renewed 3 times as often). Shorter: faster take-over after a crash, more database writes.',
  ),
  webhookAttempts: setting('WEBHOOK_ATTEMPTS', 5, integer(1, 20), 'Tries to deliver a batch webhook (the first included) before giving up.'),
  webhookRetryBaseMs: setting(
    'WEBHOOK_RETRY_BASE_MS',
    45_000,
    integer(1, 3_600_000),
    'Wait before the second webhook try; each later one waits 4 times longer (45 s, 3, 12, 48 min: about an hour over 5 tries).',
  ),
  webhookTimeoutMs: setting(
    'WEBHOOK_TIMEOUT_MS',
    10_000,
    integer(100, 120_000),
    'Longest a webhook receiver may take to answer in full; then the try counts as failed.',
  ),
  watchDir: setting(
    'WATCH_DIR',
    '',
    text,
    'Hot folder: name.json (a render request) or name.html dropped into WATCH_DIR/in becomes WATCH_DIR/out/name.pdf, or WATCH_DIR/failed/name.json with the error; WATCH_DIR/settings.json names the key charged ({"key_id": "key_..."}). Empty: off.',
  ),
} as const;
