// Monthly usage on disk: one small file per account per month, DATA_DIR/usage/<key id>/<YYYY-MM>.json,
// so what a render rewrites stays a few bytes however many keys, templates or documents exist.
// Holds no counters itself: accounts/usage.ts keeps them in memory and calls save().

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { UsageFile } from '../accounts/usage.ts';
import { openJsonDb } from './json-file.ts';

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
    const folder = path.join(this.dataDir, 'usage', accountId);
    const db = await openJsonDb<UsageRecord>(path.join(folder, `${month}.json`), { account_id: accountId, month, used: 0, updated_at: null });
    let folderReady: Promise<unknown> | undefined;
    return {
      used: db.data.used,
      charges: db.data.charges ?? [],
      async save(used: number, at: Date, charges: readonly string[] = []) {
        db.data = { account_id: accountId, month, used, updated_at: at.toISOString(), ...(charges.length > 0 ? { charges: [...charges] } : {}) };
        folderReady ??= mkdir(folder, { recursive: true }).catch((error: unknown) => {
          folderReady = undefined;
          throw error;
        });
        await folderReady;
        await db.write();
      },
    };
  }
}
