// Refuses decompression bombs inside a PDF's streams (a stream of zeros that unpacks to gigabytes,
// or a Flate stream inside a Flate stream that packs 1:1,000,000) before any tool or parser decodes
// them: qpdf copies every stream's raw bytes out without decoding any (--decode-level=none), then
// each stream's whole filter chain is decoded here a chunk at a time with counting only (zlib runs
// on the thread pool; nothing decoded is kept), stopping as soon as a stream or the total passes
// its limit, within a time bound. Image filters (DCT, JPX, ...) end a chain: pixels are bounded by pdf-open.ts.

import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PdfInputError, PdfToolTimeoutError } from './pdf-errors.ts';
import { runTool, toolComplaint } from './pdf-tool.ts';
import { decoderFor } from './stream-filters.ts';

/** What a PDF's streams may unpack to (one stream, all together), and how long counting may take. */
export interface DecodedLimits {
  streamBytes: number;
  totalBytes: number;
  timeoutMs: number;
}

/** The defaults (PDF_STREAM_MAX_BYTES, PDF_STREAMS_MAX_BYTES, PDF_STREAM_CHECK_TIMEOUT_MS): as much as a tool may write in one file, 2 GiB, 20 s. */
export const DECODED_LIMITS: DecodedLimits = { streamBytes: 512 * 1024 * 1024, totalBytes: 2 * 1024 * 1024 * 1024, timeoutMs: 20_000 };

/** Raw reads this small keep one chunk's decoded output to a few MB at LZW's worst. */
const READ_CHUNK = 16 * 1024;

interface StreamEntry {
  object: string;
  file: string;
  filters: string[];
}

/** Throws PdfInputError too_large naming `field` when a stream of `file` unpacks past `limits` (or cannot be counted in time). */
export async function checkDecodedSize(
  file: string,
  workDir: string,
  field: string,
  options: { passwordFile?: string; limits?: Partial<DecodedLimits> } = {},
): Promise<void> {
  const limits = { ...DECODED_LIMITS, ...options.limits };
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const late = () =>
    new PdfInputError(
      'too_large',
      field,
      `${field} streams could not be counted within ${limits.timeoutMs / 1000} s (a decompression bomb?); PDF inputs must unpack faster than that`,
    );
  try {
    let left = limits.totalBytes;
    for (const stream of await listStreams(file, workDir, field, options.passwordFile, limits.timeoutMs)) {
      const budget = Math.min(limits.streamBytes, left);
      const unpacked = await decodedSize(stream, budget, deadline);
      if (deadline.aborted) throw late();
      if (unpacked > budget)
        throw new PdfInputError(
          'too_large',
          field,
          unpacked > limits.streamBytes
            ? `${field} object ${stream.object} unpacks to more than ${size(limits.streamBytes)} (a decompression bomb?); a stream may unpack to at most that`
            : `${field} streams unpack to more than ${size(limits.totalBytes)} in all (a decompression bomb?); PDF inputs may unpack to at most that`,
        );
      left -= unpacked;
    }
  } catch (error) {
    if (error instanceof PdfToolTimeoutError) throw late();
    throw error;
  }
}

/** Every stream of `file` with its raw bytes copied to a file of its own and its filter chain. */
async function listStreams(file: string, workDir: string, field: string, passwordFile: string | undefined, timeoutMs: number): Promise<StreamEntry[]> {
  const json = path.join(workDir, 'objects.json');
  const run = await runTool(
    'qpdf',
    [
      ...(passwordFile ? [`--password-file=${passwordFile}`] : []),
      '--json-output=2',
      '--decode-level=none',
      '--json-stream-data=file',
      `--json-stream-prefix=${path.join(workDir, 'stream')}`,
      file,
      json,
    ],
    { timeoutMs },
  );
  if (run.overLimit) throw new PdfInputError('too_large', field, `${field} has more objects than can be read within the limits of PDF inputs`);
  if (run.code !== 0 && run.code !== 3)
    throw new PdfInputError('unreadable', field, `${field} has streams that cannot be read: ${toolComplaint(run.stderr, [file, workDir])}`);
  const objects = (JSON.parse(await readFile(json, 'utf8')) as { qpdf: [unknown, Record<string, QpdfObject>] }).qpdf[1];
  const streams: StreamEntry[] = [];
  for (const [key, object] of Object.entries(objects)) {
    if (!object.stream?.datafile) continue;
    streams.push({ object: key.replace(/^obj:| 0 R$/g, ''), file: object.stream.datafile, filters: filtersOf(object.stream.dict?.['/Filter'], objects) });
  }
  return streams;
}

interface QpdfObject {
  value?: unknown;
  stream?: { datafile?: string; dict?: Record<string, unknown> };
}

/** /Filter as names without the slash: a name, an array of them, or a reference to either. */
function filtersOf(value: unknown, objects: Record<string, QpdfObject>): string[] {
  const resolved = typeof value === 'string' && / R$/.test(value) ? objects[`obj:${value}`]?.value : value;
  const names = Array.isArray(resolved) ? resolved : resolved === undefined ? [] : [resolved];
  return names.map((name) => {
    const direct = typeof name === 'string' && / R$/.test(name) ? objects[`obj:${name}`]?.value : name;
    return typeof direct === 'string' ? direct.replace(/^\//, '') : '';
  });
}

/**
 * The bytes a stream's chain decodes to, counted up to budget + 1 at the end of the chain (what a
 * reader keeps; no filter halves what it is given, so no stage before it is much larger). A stream
 * with no filter that expands counts 0; a damaged stream counts what it gave before the damage.
 */
async function decodedSize(stream: StreamEntry, budget: number, deadline: AbortSignal): Promise<number> {
  const decoders = [];
  for (const filter of stream.filters) {
    const decoder = decoderFor(filter);
    if (!decoder) break;
    decoders.push(decoder);
  }
  if (decoders.length === 0) return 0;
  let count = 0;
  const stop = new AbortController();
  const counter = new Writable({
    write(chunk: Buffer, _encoding, done) {
      count += chunk.byteLength;
      // Past the budget: no more is read or decoded (the pipeline is torn down at once).
      if (count > budget) stop.abort();
      done();
    },
  });
  const stages: (Readable | Writable)[] = [createReadStream(stream.file, { highWaterMark: READ_CHUNK }), ...decoders, counter];
  await pipeline(stages as [Readable, ...Writable[]], { signal: AbortSignal.any([stop.signal, deadline]) }).catch(() => undefined);
  return count;
}

/** A limit as a person reads it: whole MB, or KB below one MB (a test server's small budget). */
function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}
