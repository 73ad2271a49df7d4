// Streaming decoders for the PDF filters that can make a stream larger (Flate, LZW, run-length,
// ASCII hex, ASCII85), so stream-budget.ts can unpack a whole filter chain ([/FlateDecode
// /FlateDecode] packs 1:1,000,000) a chunk at a time and count it. Image filters (DCT, JPX, CCITT,
// JBIG2) are not decoded here: their pixels are bounded by pdf-open.ts instead.

import { Transform, type TransformCallback } from 'node:stream';
import { createInflate } from 'node:zlib';

/** A filter's decoder, or undefined for a filter whose output is bounded elsewhere (images) or unknown. */
export function decoderFor(filter: string): Transform | undefined {
  switch (filter) {
    case 'FlateDecode':
    case 'Fl':
      return createInflate({ chunkSize: 1024 * 1024 });
    case 'LZWDecode':
    case 'LZW':
      return new LzwDecoder();
    case 'RunLengthDecode':
    case 'RL':
      return new RunLengthDecoder();
    case 'ASCIIHexDecode':
    case 'AHx':
      return new HexDecoder();
    case 'ASCII85Decode':
    case 'A85':
      return new Ascii85Decoder();
    default:
      return undefined;
  }
}

/** What one input chunk decodes to: single bytes gathered, runs kept as buffers. */
class Output {
  private readonly parts: Buffer[] = [];
  private pending: number[] = [];

  push(...bytes: number[]): void {
    for (const byte of bytes) this.pending.push(byte);
  }

  run(bytes: Buffer): void {
    this.settle();
    this.parts.push(bytes);
  }

  take(): Buffer | undefined {
    this.settle();
    return this.parts.length > 0 ? Buffer.concat(this.parts) : undefined;
  }

  private settle(): void {
    if (this.pending.length === 0) return;
    this.parts.push(Buffer.from(this.pending));
    this.pending = [];
  }
}

/**
 * A decoder that turns each chunk into output bytes and may end early (an end-of-data mark). The
 * reader gives it small chunks (stream-budget.ts), so one chunk's output stays a few MB even at
 * LZW's worst (a 12-bit code can stand for 4096 bytes).
 */
abstract class ChunkDecoder extends Transform {
  private ended = false;
  protected abstract decode(chunk: Buffer, out: Output): boolean;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.ended) {
      done();
      return;
    }
    const out = new Output();
    this.ended = this.decode(chunk, out);
    done(null, out.take());
  }
}

/** RunLengthDecode (PDF 32000 7.4.5): a length byte, then literal bytes or one byte repeated; 128 ends. */
class RunLengthDecoder extends ChunkDecoder {
  private literal = 0;
  private repeat = 0;

  protected decode(chunk: Buffer, out: Output): boolean {
    for (const byte of chunk) {
      if (this.literal > 0) {
        out.push(byte);
        this.literal--;
      } else if (this.repeat > 0) {
        out.run(Buffer.alloc(this.repeat, byte));
        this.repeat = 0;
      } else if (byte === 128) return true;
      else if (byte < 128) this.literal = byte + 1;
      else this.repeat = 257 - byte;
    }
    return false;
  }
}

/** ASCIIHexDecode: pairs of hex digits, white space ignored, > ends (an odd last digit counts as followed by 0). */
class HexDecoder extends ChunkDecoder {
  private high = -1;

  protected decode(chunk: Buffer, out: Output): boolean {
    for (const byte of chunk) {
      if (byte === 0x3e) {
        if (this.high >= 0) out.push(this.high << 4);
        this.high = -1;
        return true;
      }
      const digit = hexValue(byte);
      if (digit < 0) continue;
      if (this.high < 0) this.high = digit;
      else {
        out.push((this.high << 4) | digit);
        this.high = -1;
      }
    }
    return false;
  }

  override _flush(done: TransformCallback): void {
    done(null, this.high >= 0 ? Buffer.from([this.high << 4]) : undefined);
  }
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

/** ASCII85Decode: five characters ! to u make four bytes, z makes four zeros, ~> ends. */
class Ascii85Decoder extends ChunkDecoder {
  private group: number[] = [];

  protected decode(chunk: Buffer, out: Output): boolean {
    for (const byte of chunk) {
      if (byte === 0x7e) {
        this.finish(out);
        return true;
      }
      if (byte === 0x7a && this.group.length === 0) out.push(0, 0, 0, 0);
      else if (byte >= 0x21 && byte <= 0x75) {
        this.group.push(byte - 0x21);
        if (this.group.length === 5) this.finish(out);
      }
    }
    return false;
  }

  override _flush(done: TransformCallback): void {
    const out = new Output();
    this.finish(out);
    done(null, out.take());
  }

  /** A whole group gives four bytes; a last group of n characters (padded with u) gives n - 1. */
  private finish(out: Output): void {
    const count = this.group.length;
    if (count < 2) {
      this.group = [];
      return;
    }
    while (this.group.length < 5) this.group.push(84);
    const value = this.group.reduce((sum, digit) => sum * 85 + digit, 0) >>> 0;
    out.push(...[value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].slice(0, count - 1));
    this.group = [];
  }
}

/** LZWDecode with the PDF defaults: 9 to 12 bit codes, 256 clears, 257 ends, EarlyChange 1. */
class LzwDecoder extends ChunkDecoder {
  private table: Buffer[] = [];
  private previous: Buffer | undefined;
  private width = 9;
  private bits = 0;
  private bitCount = 0;

  constructor() {
    super();
    this.clear();
  }

  protected decode(chunk: Buffer, out: Output): boolean {
    for (const byte of chunk) {
      this.bits = ((this.bits << 8) | byte) & 0xffffff;
      this.bitCount += 8;
      while (this.bitCount >= this.width) {
        const code = (this.bits >>> (this.bitCount - this.width)) & ((1 << this.width) - 1);
        this.bitCount -= this.width;
        if (code === 257) return true;
        if (code === 256) {
          this.clear();
          continue;
        }
        const entry =
          this.table[code] ?? (this.previous && code === this.table.length ? Buffer.concat([this.previous, this.previous.subarray(0, 1)]) : undefined);
        // A code past the table is damage: readers stop there, and so does the count.
        if (!entry) return true;
        out.run(entry);
        if (this.previous && this.table.length < 4096) this.table.push(Buffer.concat([this.previous, entry.subarray(0, 1)]));
        this.previous = entry;
        const next = this.table.length + 1;
        this.width = next >= 2048 ? 12 : next >= 1024 ? 11 : next >= 512 ? 10 : 9;
      }
    }
    return false;
  }

  private clear(): void {
    this.table = Array.from({ length: 258 }, (_, i) => Buffer.from([i]));
    this.previous = undefined;
    this.width = 9;
  }
}
