// Monthly usage on disk: one small file per account per month, DATA_DIR/usage/<key id>/<YYYY-MM>.json,
// so what a render rewrites stays a few bytes however many keys, templates or documents exist.
// Holds no counters itself: accounts/usage.ts keeps them in memory and calls save() before it
// counts. A damaged file fails opening (StoreReadError naming it), so only that key's calls fail.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { UsageFile } from '../accounts/usage.ts';
import { syncFolder } from './durable-file.ts';
import { openJsonFile } from './json-file.ts';

interface UsageRecord {
  account_id: string;
  month: string;
  used: number;
  updated_at: string | null;
  /** Charge tags of batch items whose batch had not yet recorded the charge (accounts/usage.ts). */
  charges?: string[];
}

const SAFE_SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

export class UsageStore {
  constructor(private readonly dataDir: string) {}

  /** Opens the usage file of one account and month (a count of 0 when it does not exist yet). */
  async open(accountId: string, month: string): Promise<UsageFile> {
    if (!SAFE_SEGMENT.test(accountId) || !/^\d{4}-\d{2}$/.test(month)) throw new Error(`bad usage file name ${accountId}/${month}`);
    const usageRoot = path.join(this.dataDir, 'usage');
    const folder = path.join(usageRoot, accountId);
    const { file, data } = await openJsonFile<UsageRecord>(path.join(folder, `${month}.json`), (value) => validateUsage(value, accountId, month), {
      account_id: accountId,
      month,
      used: 0,
      updated_at: null,
    });
    let folderReady: Promise<unknown> | undefined;
    return {
      used: data.used,
      charges: data.charges ?? [],
      async save(used: number, at: Date, charges: readonly string[] = []) {
        // The key's folder entry must be durable too, or a power cut could lose the whole folder.
        folderReady ??= mkdir(folder, { recursive: true })
          .then(async (created) => {
            if (created) await syncFolder(usageRoot);
            if (created && created !== folder) await syncFolder(path.dirname(usageRoot));
          })
          .catch((error: unknown) => {
            folderReady = undefined;
            throw error;
          });
        await folderReady;
        await file.write({ account_id: accountId, month, used, updated_at: at.toISOString(), ...(charges.length > 0 ? { charges: [...charges] } : {}) });
      },
    };
  }
}

/** What is wrong with a usage file's content, or undefined (also used by the doctor). */
export function validateUsage(data: unknown, accountId?: string, month?: string): string | undefined {
  const record = data as UsageRecord;
  if (typeof record !== 'object' || record === null) return `expected a usage record, found ${record === null ? 'null' : typeof record}`;
  if (!Number.isSafeInteger(record.used) || record.used < 0) return 'used is not a whole number of documents';
  if (accountId !== undefined && record.account_id !== accountId) return `account_id is not ${accountId}`;
  if (month !== undefined && record.month !== month) return `month is not ${month}`;
  if (record.charges !== undefined && (!Array.isArray(record.charges) || record.charges.some((tag) => typeof tag !== 'string')))
    return 'charges is not a list of tags';
  return undefined;
}
