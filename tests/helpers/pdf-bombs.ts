// Small decompression bombs for the stream budget's tests (pdf/stream-budget.ts): a page whose
// content stream unpacks, through a chain of PDF filters, to `megabytes` of zeros. The bytes are
// built without ever holding what they unpack to, so a test can ask for gigabytes cheaply; with a
// small PDF_STREAM_MAX_BYTES a few MB are enough and the test stays fast.

import { constants as zlibConstants, deflateRawSync, deflateSync } from 'node:zlib';
import { rawPdfWithStream } from './pdf-cli.ts';

/** The filters a bomb's chain may name, in decoding order (as /Filter lists them). */
export type BombFilter = 'FlateDecode' | 'LZWDecode' | 'RunLengthDecode' | 'ASCIIHexDecode' | 'ASCII85Decode';

/** A one-page PDF whose content stream decodes through `filters` to `megabytes` MB of zeros. */
export function streamBomb(megabytes: number, filters: BombFilter[] = ['FlateDecode']): Uint8Array {
  const innermost = filters.at(-1)!;
  let data = zeros(innermost, megabytes * 1024 * 1024);
  for (const filter of filters.slice(0, -1).reverse()) data = encode(filter, data);
  const head = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>',
  ]
    .map((body, i) => `${i + 1} 0 obj\n${body}\nendobj\n`)
    .join('');
  const names = filters.map((filter) => `/${filter}`).join(' ');
  return rawPdfWithStream(head, `<< /Length ${data.byteLength} /Filter [${names}] >>`, data);
}

/** `bytes` zeros encoded with `filter`, built from a repeated unit (never the zeros themselves). */
function zeros(filter: BombFilter, bytes: number): Buffer {
  const megabytes = Math.ceil(bytes / (1024 * 1024));
  switch (filter) {
    case 'FlateDecode': {
      const block = deflateRawSync(Buffer.alloc(1024 * 1024), { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
      return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: megabytes }, () => block), Buffer.from([0x03, 0x00])]);
    }
    case 'RunLengthDecode':
      // 129..255 repeat the next byte 257 - n times: [129, 0] is 128 zeros.
      return Buffer.concat([Buffer.alloc(Math.ceil(bytes / 128) * 2).map((_, i) => (i % 2 === 0 ? 129 : 0)), Buffer.from([128])]);
    case 'LZWDecode':
      return lzwZeros(bytes);
    default:
      return encode(filter, Buffer.alloc(bytes));
  }
}

function encode(filter: BombFilter, data: Buffer): Buffer {
  if (filter === 'FlateDecode') return deflateSync(data, { level: 9 });
  if (filter === 'ASCIIHexDecode') return Buffer.from(`${data.toString('hex')}>`, 'latin1');
  if (filter === 'ASCII85Decode') return ascii85(data);
  throw new Error(`${filter} only as the last filter of a bomb`);
}

function ascii85(data: Buffer): Buffer {
  let out = '';
  for (let at = 0; at < data.byteLength; at += 4) {
    const group = Buffer.alloc(4);
    data.copy(group, 0, at, Math.min(at + 4, data.byteLength));
    const value = group.readUInt32BE(0);
    const length = Math.min(4, data.byteLength - at);
    if (value === 0 && length === 4) {
      out += 'z';
      continue;
    }
    let digits = '';
    for (let i = 0, rest = value; i < 5; i++, rest = Math.floor(rest / 85)) digits = String.fromCharCode(33 + (rest % 85)) + digits;
    out += digits.slice(0, length + 1);
  }
  return Buffer.from(`${out}~>`, 'latin1');
}

/**
 * LZW codes for `bytes` zeros: 0, then 258, 259, ... each naming the entry about to be made (the
 * previous run plus one zero), so code n stands for n - 256 zeros; 256 clears the table at 4096.
 */
function lzwZeros(bytes: number): Buffer {
  const out: number[] = [];
  let bits = 0;
  let count = 0;
  const write = (code: number, width: number) => {
    bits = (bits << width) | code;
    count += width;
    while (count >= 8) {
      out.push((bits >>> (count - 8)) & 0xff);
      count -= 8;
    }
    bits &= (1 << count) - 1;
  };
  // The width of the code read after the table reached `size` entries (EarlyChange 1: one early).
  const width = (size: number) => (size + 1 >= 2048 ? 12 : size + 1 >= 1024 ? 11 : size + 1 >= 512 ? 10 : 9);
  let made = 0;
  while (made < bytes) {
    write(0, 9);
    made += 1;
    let size = 258;
    for (let code = 258; code < 4095 && made < bytes; code++) {
      write(code, width(size));
      size++;
      made += code - 256;
    }
    write(256, width(size));
  }
  write(257, 9);
  if (count > 0) out.push((bits << (8 - count)) & 0xff);
  return Buffer.from(out);
}
