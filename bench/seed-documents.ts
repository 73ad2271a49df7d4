// Seeding a documents store for the benches that need a large collection (documents.ts,
// startup.ts): straight through the store, without fsync, 32 writers at a time, a record every
// 10 ms over the last month. What differs per bench (whose key, which plan, how long kept) is
// passed in; the seeding itself is written once.

import { newId } from '../server/src/ids.ts';
import type { DocumentRecord } from '../server/src/stores/document-record.ts';
import { DocumentsStore } from '../server/src/stores/documents.ts';

/** The fields of the n-th seeded record that a bench chooses. */
export interface SeedFields {
  keyId: string;
  filename: string | null;
  planId: string;
  retention: string;
  retentionSeconds: number;
}

/** Stores `count` copies of `pdf` in the documents store under dataDir, the n-th with `fieldsOf(n)`. */
export async function seedDocuments(dataDir: string, count: number, pdf: Uint8Array, fieldsOf: (n: number) => SeedFields): Promise<void> {
  const { store } = await DocumentsStore.open(dataDir, { sync: false });
  const base = Date.now() - 30 * 86_400_000;
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < count) {
        const n = next++;
        const created = new Date(base + n * 10);
        const { keyId, filename, planId, retention, retentionSeconds } = fieldsOf(n);
        const record: DocumentRecord = {
          id: newId('doc'),
          keyId,
          filename,
          size: pdf.byteLength,
          createdAt: created.toISOString(),
          expiresAt: new Date(created.getTime() + retentionSeconds * 1000).toISOString(),
          source: 'render',
          batchId: null,
          planId,
          retention,
          state: 'stored',
          expiredAt: null,
        };
        await store.put(record, pdf);
      }
    }),
  );
}
