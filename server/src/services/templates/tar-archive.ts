// A minimal ustar writer and reader for template archives: regular files with short names only
// (the archive names its files itself), gzip-compressed. Reading refuses anything else, and
// inflation is capped, so a hostile archive cannot make the server write links or fill memory.

import { gunzipSync, gzipSync } from 'node:zlib';

export interface ArchiveFile {
  name: string;
  bytes: Uint8Array;
}

/** A file that is not an archive we wrote (or one that inflates past the cap). */
export class ArchiveError extends Error {}

const BLOCK = 512;

/** Packs files into a .tar.gz. Names must be ASCII and at most 100 characters. */
export function packArchive(files: readonly ArchiveFile[]): Uint8Array {
  const parts: Buffer[] = [];
  for (const file of files) {
    if (!/^[\x21-\x7e]{1,100}$/.test(file.name)) throw new Error(`archive member name not allowed: ${file.name}`);
    const header = Buffer.alloc(BLOCK);
    header.write(file.name, 0, 'ascii');
    header.write('0000600\0', 100, 'ascii');
    header.write('0000000\0', 108, 'ascii');
    header.write('0000000\0', 116, 'ascii');
    header.write(`${file.bytes.byteLength.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
    header.write('00000000000\0', 136, 'ascii');
    header.write('        ', 148, 'ascii');
    header.write('0', 156, 'ascii');
    header.write('ustar\0', 257, 'ascii');
    header.write('00', 263, 'ascii');
    header.write(`${checksum(header).toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
    parts.push(header, Buffer.from(file.bytes), Buffer.alloc((BLOCK - (file.bytes.byteLength % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return new Uint8Array(gzipSync(Buffer.concat(parts)));
}

/** Unpacks a .tar.gz of regular files; throws ArchiveError for anything else or past maxBytes inflated. */
export function unpackArchive(gzipped: Uint8Array, maxBytes: number): ArchiveFile[] {
  let tar: Buffer;
  try {
    tar = gunzipSync(gzipped, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new ArchiveError(`the archive unpacks to more than ${maxBytes / 1024 / 1024} MB`);
    throw new ArchiveError('the body is not a gzip-compressed archive');
  }
  const files: ArchiveFile[] = [];
  for (let offset = 0; offset + BLOCK <= tar.length; ) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const name = field(header, 0, 100);
    const size = parseInt(field(header, 124, 12).trim() || 'x', 8);
    if (!Number.isSafeInteger(size) || size < 0 || offset + BLOCK + size > tar.length) throw new ArchiveError('the archive is truncated or damaged');
    if (checksum(header) !== parseInt(field(header, 148, 8).trim(), 8)) throw new ArchiveError('the archive has a damaged header');
    const type = String.fromCharCode(header[156]!);
    if (type !== '0' && type !== '\0') throw new ArchiveError(`the archive holds ${name}, which is not a regular file`);
    files.push({ name, bytes: new Uint8Array(tar.subarray(offset + BLOCK, offset + BLOCK + size)) });
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}

function field(header: Buffer, start: number, length: number): string {
  return header
    .subarray(start, start + length)
    .toString('ascii')
    .replace(/\0.*$/s, '');
}

/** The ustar checksum: the header's bytes summed with the checksum field read as spaces. */
function checksum(header: Buffer): number {
  let sum = 0;
  for (let at = 0; at < BLOCK; at++) sum += at >= 148 && at < 156 ? 32 : header[at]!;
  return sum;
}
