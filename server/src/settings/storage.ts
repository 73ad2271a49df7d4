// Storage settings: how long documents, tombstones and receipts are kept, and how often they are swept.
// One part of the settings table config.ts merges into SETTINGS (and prints for --help).

import { integer, setting } from './parsers.ts';

export const storageSettings = {
  retentionSweepSeconds: setting(
    'RETENTION_SWEEP_SECONDS',
    60,
    integer(1, 86_400),
    'How often stored documents past their retention are deleted (also once at start-up).',
  ),
  tombstoneDays: setting(
    'TOMBSTONE_DAYS',
    90,
    integer(1, 3650),
    'Days an expired document still answers 410 document_expired after its bytes are deleted; then 404.',
  ),
  receiptRetentionHours: setting(
    'RECEIPT_RETENTION_HOURS',
    24,
    integer(1, 8760),
    'Hours a render receipt is kept when its render stored no document (a stored one’s receipt lasts as long as the document).',
  ),
} as const;
