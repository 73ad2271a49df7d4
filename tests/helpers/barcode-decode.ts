// Reads the barcodes printed on a PDF with decoders independent of the code under test: the page
// rasterised by poppler's pdftoppm, then zbar's zbarimg (QR, EAN-13, UPC-A, Code 128) and
// libdmtx's dmtxread (DataMatrix), both Debian packages.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Runs `read` on a PNG of one page (1-based) of the PDF at `dpi`. */
function withPage<T>(pdf: Uint8Array, page: number, dpi: number, read: (png: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'barcode-decode-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    const out = path.join(dir, 'page');
    execFileSync('pdftoppm', ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', path.join(dir, 'in.pdf'), out]);
    return read(`${out}.png`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What zbarimg finds on a page, as "SYMBOLOGY:data" (UPC-A reported as such, not as an EAN-13 with a leading 0). */
export function zbarSymbols(pdf: Uint8Array, page: number, dpi = 300): string[] {
  return withPage(pdf, page, dpi, (png) => {
    // zbarimg exits 4 when it finds nothing: that is an answer here, not a failure.
    const run = spawnSync('zbarimg', ['--quiet', '-Supca.enable', png], { encoding: 'utf8' });
    if (run.status !== 0 && run.status !== 4) throw new Error(`zbarimg failed (${run.status}): ${run.stderr}`);
    return run.stdout.split('\n').filter((line) => line !== '');
  });
}

/** What dmtxread finds on a page (DataMatrix), one string per symbol. */
export function dataMatrixSymbols(pdf: Uint8Array, page: number, dpi = 150): string[] {
  return withPage(pdf, page, dpi, (png) => {
    const run = spawnSync('dmtxread', ['-n', '--milliseconds=20000', '-N', '1', png], { encoding: 'utf8' });
    if (run.status !== 0 && run.status !== 1) throw new Error(`dmtxread failed (${run.status}): ${run.stderr}`);
    return run.stdout.split('\n').filter((line) => line !== '');
  });
}
