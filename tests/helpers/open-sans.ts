// A font that is not installed on the machine, for tests that hand one to a render (FONTS_DIR,
// template assets): Open Sans, read out of the font tarball that @sparticuz/chromium ships.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

/** Reads OpenSans-Regular.ttf out of the font tarball that @sparticuz/chromium ships. */
export async function openSansFromSparticuz(): Promise<Buffer> {
  const packageDir = path.resolve(path.dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..', '..');
  const tar = brotliDecompressSync(await readFile(path.join(packageDir, 'bin', 'fonts.tar.br')));
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const name = tar
      .subarray(offset, offset + 100)
      .toString('utf8')
      .replace(/\0.*$/s, '');
    const size = parseInt(
      tar
        .subarray(offset + 124, offset + 136)
        .toString('utf8')
        .replace(/\0.*$/s, '')
        .trim() || '0',
      8,
    );
    if (name.endsWith('OpenSans-Regular.ttf')) return tar.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (!name) break;
  }
  throw new Error('OpenSans-Regular.ttf not found in the @sparticuz/chromium font bundle');
}
