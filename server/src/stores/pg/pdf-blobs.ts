// PDF bytes in PostgreSQL (the PdfBlobStore of stores/pdf-blobs.ts): split into 256 KB chunk
// rows, written in the document's own transaction, streamed back a chunk at a time from one
// REPEATABLE READ snapshot, so a response is never buffered whole and a delete that commits
// while it streams cannot cut it short.

import { Readable } from 'node:stream';
import type pg from 'pg';
import type { PdfBlobStore, PdfReader } from '../pdf-blobs.ts';
import type { Queryable } from './transaction.ts';

const CHUNK_BYTES = 256 * 1024;

export class PgPdfBlobStore implements PdfBlobStore<Queryable> {
  constructor(private readonly pool: pg.Pool) {}

  async put(id: string, pdf: Uint8Array, transaction: Queryable = this.pool): Promise<void> {
    const chunks: Buffer[] = [];
    const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
    for (let at = 0; at < bytes.length || at === 0; at += CHUNK_BYTES) chunks.push(bytes.subarray(at, at + CHUNK_BYTES));
    await transaction.query(
      'INSERT INTO document_blobs (document_id, seq, data) SELECT $1, seq - 1, data FROM unnest($2::bytea[]) WITH ORDINALITY AS chunk(data, seq)',
      [id, chunks],
    );
  }

  async open(id: string): Promise<PdfReader | undefined> {
    const client = await this.pool.connect();
    let open = true;
    const close = async () => {
      if (!open) return;
      open = false;
      await client.query('COMMIT').catch(() => undefined);
      client.release();
    };
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const { rows } = await client.query<{ chunks: number }>('SELECT count(*)::int AS chunks FROM document_blobs WHERE document_id = $1', [id]);
      const chunks = rows[0]!.chunks;
      if (chunks === 0) {
        await close();
        return undefined;
      }
      return {
        createReadStream() {
          let seq = 0;
          return new Readable({
            async read() {
              if (seq >= chunks) return void this.push(null);
              try {
                const {
                  rows: [chunk],
                } = await client.query<{ data: Buffer }>('SELECT data FROM document_blobs WHERE document_id = $1 AND seq = $2', [id, seq++]);
                this.push(chunk!.data);
              } catch (error) {
                this.destroy(error as Error);
              }
            },
          });
        },
        close,
      };
    } catch (error) {
      await close();
      throw error;
    }
  }

  async remove(id: string, transaction: Queryable = this.pool): Promise<void> {
    await transaction.query('DELETE FROM document_blobs WHERE document_id = $1', [id]);
  }
}
