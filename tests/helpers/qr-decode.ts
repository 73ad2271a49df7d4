// Reads QR codes the way a test should: with an independent decoder (zbarimg, Debian's zbar-tools)
// on pixels, never with the library that drew them. An SVG is rasterised with @napi-rs/canvas, a
// PDF page with pdftoppm; the decoded bytes come back exactly as the code carries them.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createCanvas, Image } from '@napi-rs/canvas';

const run = promisify(execFile);

/** Every QR code zbarimg finds in a PNG, each as the UTF-8 text of its bytes (zbarimg ends each with a line break). */
export async function decodeQrCodes(png: Uint8Array): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'quire-qr-'));
  try {
    const file = path.join(dir, 'code.png');
    await writeFile(file, png);
    // -Sbinary: the bytes as encoded, no character set guessed; --raw: no "QR-Code:" prefix; exit 4 is "nothing found".
    const { stdout } = await run('zbarimg', ['--quiet', '--raw', '-Sbinary', '-Sqrcode.enable', file], { encoding: 'buffer' }).catch((error) => {
      if (error.code === 4) return { stdout: Buffer.alloc(0) };
      throw error;
    });
    return splitCodes(stdout.toString('utf8'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An SVG drawn on a white canvas at `pixelsPerUnit` canvas pixels per SVG pixel, as PNG. */
export function rasteriseSvg(svg: string, pixelsPerUnit = 4): Uint8Array {
  const image = new Image();
  image.src = Buffer.from(svg);
  const width = Math.round(image.width * pixelsPerUnit);
  const height = Math.round(image.height * pixelsPerUnit);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.drawImage(image, 0, 0, width, height);
  return canvas.toBuffer('image/png');
}

/** The first page of a PDF as a PNG at `dpi`. */
export async function rasterisePdfPage(pdf: Uint8Array, page = 1, dpi = 300): Promise<Uint8Array> {
  const dir = await mkdtemp(path.join(tmpdir(), 'quire-qr-'));
  try {
    await writeFile(path.join(dir, 'in.pdf'), pdf);
    await run('pdftoppm', ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', 'in.pdf', 'page'], { cwd: dir });
    return await readFile(path.join(dir, 'page.png'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * zbarimg separates codes with a line break, and payloads hold line breaks themselves; with one code
 * on the image (what these tests draw) the whole output less its final line break is that code.
 */
function splitCodes(output: string): string[] {
  return output === '' ? [] : [output.replace(/\n$/, '')];
}
