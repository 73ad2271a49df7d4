// Refuses decompression bombs inside a PDF's streams (a FlateDecode stream of zeros that unpacks
// to gigabytes) before any heavy tool decodes them: qpdf copies every stream's raw bytes out
// without decoding any (--decode-level=none), then each zlib stream is inflated here with
// counting only (Node's zlib runs on the thread pool, never on the event loop; nothing decoded
// is kept), stopping at the budget. Only Flate is counted: it is the filter that packs 1:1000;
// DCT and JPX images are bounded by their pixels (pdf-open.ts), and run-length packs at most 1:128.

import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { createInflate } from 'node:zlib';
import { PdfInputError } from './pdf-errors.ts';
import { runTool, toolComplaint } from './pdf-tool.ts';

/** What a PDF's streams may unpack to: one stream (as much as a tool may write in one file), all streams together. */
export const DECODED_LIMITS = { streamBytes: 512 * 1024 * 1024, totalBytes: 2 * 1024 * 1024 * 1024 };

/** Throws PdfInputError too_large naming `field` when a stream of `file` (a PDF qpdf wrote) unpacks past `limits`. */
export async function checkDecodedSize(file: string, workDir: string, field: string, limits = DECODED_LIMITS): Promise<void> {
  const prefix = path.join(workDir, 'stream');
  const run = await runTool('qpdf', [
    '--json-output=2',
    '--decode-level=none',
    '--json-stream-data=file',
    `--json-stream-prefix=${prefix}`,
    file,
    path.join(workDir, 'objects.json'),
  ]);
  if (run.overLimit) throw new PdfInputError('too_large', field, `${field} has more objects than can be read within the limits of PDF inputs`);
  if (run.code !== 0 && run.code !== 3)
    throw new PdfInputError('unreadable', field, `${field} has streams that cannot be read: ${toolComplaint(run.stderr, [file, workDir])}`);
  let left = limits.totalBytes;
  for (const name of await readdir(workDir)) {
    if (!name.startsWith('stream-')) continue;
    const budget = Math.min(limits.streamBytes, left);
    const unpacked = await inflatedSize(path.join(workDir, name), budget);
    if (unpacked > budget) {
      const object = name.slice('stream-'.length);
      throw new PdfInputError(
        'too_large',
        field,
        unpacked > limits.streamBytes
          ? `${field} object ${object} unpacks to more than ${mb(limits.streamBytes)} MB (a decompression bomb?); a stream may unpack to at most that`
          : `${field} streams unpack to more than ${mb(limits.totalBytes)} MB in all (a decompression bomb?); PDF inputs may unpack to at most that`,
      );
    }
    left -= unpacked;
  }
}

/** The bytes a zlib stream in `file` inflates to, counted up to budget + 1; 0 for data that is not zlib. */
async function inflatedSize(file: string, budget: number): Promise<number> {
  if (!(await hasZlibHeader(file))) return 0;
  return new Promise((resolve) => {
    let count = 0;
    const input = createReadStream(file);
    const inflate = createInflate({ chunkSize: 1024 * 1024 });
    const done = () => {
      input.destroy();
      inflate.destroy();
      resolve(count);
    };
    inflate.on('data', (chunk: Buffer) => {
      count += chunk.byteLength;
      if (count > budget) done();
    });
    // A damaged stream counts what it gave before the damage: readers stop there too.
    inflate.on('error', done);
    inflate.on('end', done);
    input.on('error', done);
    input.pipe(inflate);
  });
}

/** RFC 1950: deflate (CM 8) and a header checksum that divides by 31. */
async function hasZlibHeader(file: string): Promise<boolean> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(file, { start: 0, end: 1 })) chunks.push(chunk as Buffer);
  const head = Buffer.concat(chunks);
  return head.byteLength === 2 && (head[0]! & 0x0f) === 8 && (head[0]! * 256 + head[1]!) % 31 === 0;
}

function mb(bytes: number): number {
  return Math.round(bytes / 1024 / 1024);
}
