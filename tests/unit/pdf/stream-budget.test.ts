// pdf/stream-budget.ts through pdf/pdf-open.ts: a stream is counted through its whole filter chain
// (Flate in Flate, ASCII85 over Flate, LZW, run-length), refused as soon as it passes the limit,
// and a count that takes too long is refused too, all before qpdf's rewrite decodes anything.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPdf } from '../../../server/src/pdf/pdf-open.ts';
import { PdfInputError } from '../../../server/src/pdf/pdf-errors.ts';
import { type BombFilter, streamBomb } from '../../helpers/pdf-bombs.ts';

const MB = 1024 * 1024;

async function outcome(pdf: Uint8Array, decoded: { streamBytes?: number; totalBytes?: number; timeoutMs?: number }) {
  return openPdf(pdf, { field: 'pdf', decoded }).then(
    () => 'opened',
    (error: unknown) => {
      assert.ok(error instanceof PdfInputError, `expected a PdfInputError, got ${String(error)}`);
      return `${error.problem}: ${error.message}`;
    },
  );
}

const CHAINS: BombFilter[][] = [
  ['FlateDecode'],
  ['FlateDecode', 'FlateDecode'],
  ['ASCII85Decode', 'FlateDecode'],
  ['ASCIIHexDecode', 'FlateDecode'],
  ['LZWDecode'],
  ['RunLengthDecode'],
  ['FlateDecode', 'RunLengthDecode'],
];

for (const chain of CHAINS) {
  test(`a stream of [${chain.join(' ')}] is counted to what it unpacks to: 3 MB passes a 4 MB limit and not a 2 MB one`, async () => {
    const bomb = streamBomb(3, chain);
    assert.equal(await outcome(bomb, { streamBytes: 4 * MB }), 'opened');
    assert.match(await outcome(bomb, { streamBytes: 2 * MB }), /^too_large: pdf object 4 unpacks to more than 2 MB \(a decompression bomb\?\)/);
  });
}

test('the issue-39 bomb (3 KB of Flate in Flate, 1.1 GiB unpacked) is refused by the default budget before qpdf unpacks it', async () => {
  const bomb = streamBomb(1100, ['FlateDecode', 'FlateDecode']);
  assert.ok(bomb.byteLength < 4096, `the bomb is ${bomb.byteLength} bytes`);
  assert.match(await outcome(bomb, {}), /^too_large: pdf object 4 unpacks to more than 512 MB/);
});

test('streams are counted together against the total', async () => {
  assert.match(await outcome(streamBomb(3), { streamBytes: 4 * MB, totalBytes: 2 * MB }), /^too_large: pdf streams unpack to more than 2 MB in all/);
});

test('a count that outlasts its time bound is refused as too large, naming the bound', async () => {
  // 512 MB of zeros take zlib far longer than 50 ms to count, on any machine.
  assert.match(await outcome(streamBomb(1024), { timeoutMs: 50 }), /^too_large: pdf streams could not be counted within 0.05 s/);
});
