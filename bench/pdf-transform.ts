// Bench: the PDF transform engines on files the bench makes itself. Compress a photo-heavy
// 20-page PDF (photos drawn with @napi-rs/canvas, embedded as JPEG at quality 92 as a camera
// would) with our compress step (images and lossless modes) beside plain `qpdf
// --recompress-flate --object-streams=generate` and Ghostscript's /ebook preset; split a
// 300-page PDF into 300 parts; fill a 50-field form. Engine level: the same pipeline the
// endpoint runs (pdf/transform/pipeline.ts), without HTTP.
// Run: npx tsx bench/pdf-transform.ts

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { createCanvas } from '@napi-rs/canvas';
import { runSteps } from '../server/src/pdf/transform/pipeline.ts';
import type { TransformStep } from '../server/src/pdf/transform/steps.ts';
import { transformStepSchema } from '../server/src/pdf/transform/steps.ts';
import { isMain, printAlone } from './alone.ts';

/** A photo-like picture: gradients, soft blobs and grain, so JPEG has real work to do. */
function photo(seed: number, width: number, height: number): Buffer {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  const sky = g.createLinearGradient(0, 0, 0, height);
  sky.addColorStop(0, `hsl(${(seed * 47) % 360}, 55%, 70%)`);
  sky.addColorStop(1, `hsl(${(seed * 47 + 120) % 360}, 45%, 30%)`);
  g.fillStyle = sky;
  g.fillRect(0, 0, width, height);
  for (let i = 0; i < 300; i++) {
    const x = (i * 7919 * (seed + 1)) % width;
    const y = (i * 104729 + seed * 31) % height;
    const r = 10 + ((i * 37) % 120);
    const blob = g.createRadialGradient(x, y, 0, x, y, r);
    blob.addColorStop(0, `hsla(${(i * 29 + seed * 11) % 360}, 70%, 55%, 0.8)`);
    blob.addColorStop(1, 'hsla(0, 0%, 0%, 0)');
    g.fillStyle = blob;
    g.fillRect(x - r, y - r, r * 2, r * 2);
  }
  const pixels = g.getImageData(0, 0, width, height);
  let state = seed * 2654435761;
  for (let i = 0; i < pixels.data.length; i += 4) {
    state = (state * 1103515245 + 12345) >>> 0;
    const grain = ((state >>> 24) % 25) - 12;
    pixels.data[i] = Math.max(0, Math.min(255, pixels.data[i]! + grain));
    pixels.data[i + 1] = Math.max(0, Math.min(255, pixels.data[i + 1]! + grain));
    pixels.data[i + 2] = Math.max(0, Math.min(255, pixels.data[i + 2]! + grain));
  }
  g.putImageData(pixels, 0, 0);
  return canvas.toBuffer('image/jpeg', 92);
}

/** 20 letter pages, each a 2400 × 1600 photo (about 400 dpi as placed) and a caption. */
async function photoBook(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < 20; p++) {
    const image = await doc.embedJpg(photo(p, 2400, 1600));
    const page = doc.addPage([612, 792]);
    page.drawImage(image, { x: 36, y: 300, width: 540, height: 360 });
    page.drawText(`Photo ${p + 1}: a caption that must stay text.`, { x: 36, y: 260, size: 14, font });
  }
  return doc.save();
}

async function textPages(count: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let p = 1; p <= count; p++) doc.addPage([595, 842]).drawText(`Page ${p}`, { x: 72, y: 760, size: 18 });
  return doc.save();
}

async function fiftyFieldForm(): Promise<{ pdf: Uint8Array; values: Record<string, string | boolean> }> {
  const doc = await PDFDocument.create();
  const form = doc.getForm();
  const values: Record<string, string | boolean> = {};
  for (let p = 0; p < 2; p++) {
    const page = doc.addPage([595, 842]);
    for (let i = 0; i < 25; i++) {
      const name = `field_${p * 25 + i + 1}`;
      const y = 800 - i * 30;
      if (i % 5 === 4) {
        form.createCheckBox(name).addToPage(page, { x: 40, y, width: 16, height: 16 });
        values[name] = true;
      } else {
        form.createTextField(name).addToPage(page, { x: 40, y, width: 300, height: 22 });
        values[name] = `Value ${p * 25 + i + 1}`;
      }
    }
  }
  return { pdf: await doc.save(), values };
}

/**
 * What a tool writes from `pdf` (every file it names from `output`: out.pdf, or out-01.png... when
 * `output` is a prefix, as for pdftoppm), and how long it took (ms).
 */
export function timedTool(pdf: Uint8Array, tool: string, args: (input: string, output: string) => string[]): { bytes: number; ms: number } {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-transform-'));
  try {
    const input = path.join(dir, 'in.pdf');
    writeFileSync(input, pdf);
    const began = performance.now();
    execFileSync(tool, args(input, path.join(dir, 'out')), { stdio: 'ignore' });
    const ms = performance.now() - began;
    const written = readdirSync(dir).filter((name) => name.startsWith('out'));
    return { bytes: written.reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0), ms };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function timedSteps(pdf: Uint8Array, pageCount: number, steps: unknown[]): Promise<{ bytes: number; ms: number; parts: number }> {
  const parsed = steps.map((step) => transformStepSchema.parse(step)) as TransformStep[];
  const began = performance.now();
  const outcome = await runSteps({ pdf, pageCount, name: 'bench.pdf' }, parsed);
  return { bytes: outcome.parts.reduce((sum, part) => sum + part.pdf.byteLength, 0), ms: performance.now() - began, parts: outcome.parts.length };
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);

/** The bench's section as Markdown. */
export async function measurePdfTransform(): Promise<string> {
  const book = await photoBook();
  const rows = [
    `Compress a photo-heavy 20-page PDF (${mb(book.byteLength)} MB; 20 JPEG photos of 2400 × 1600 at ~400 dpi, captions as text)`,
    '',
    '| engine | size MB | ratio | ms |',
    '|---|---|---|---|',
  ];
  const row = (name: string, figures: { bytes: number; ms: number }) =>
    rows.push(`| ${name} | ${mb(figures.bytes)} | ${(figures.bytes / book.byteLength).toFixed(3)} | ${Math.round(figures.ms)} |`);
  row(
    'qpdf --recompress-flate --object-streams=generate',
    timedTool(book, 'qpdf', (i, o) => ['--recompress-flate', '--object-streams=generate', i, o]),
  );
  row(
    'Ghostscript -dPDFSETTINGS=/ebook',
    timedTool(book, 'gs', (i, o) => ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=pdfwrite', '-dPDFSETTINGS=/ebook', `-sOutputFile=${o}`, i]),
  );
  row('compress mode lossless', await timedSteps(book, 20, [{ op: 'compress', mode: 'lossless' }]));
  row('compress (images, 150 dpi, quality 75: the default)', await timedSteps(book, 20, [{ op: 'compress' }]));
  row('compress (images, 110 dpi, quality 65)', await timedSteps(book, 20, [{ op: 'compress', dpi: 110, quality: 65 }]));

  const long = await textPages(300);
  const split = await timedSteps(long, 300, [{ op: 'split', every: 1 }]);
  const zipped = await timedSteps(long, 300, [{ op: 'split', ranges: Array.from({ length: 30 }, (_, i) => `${i * 10 + 1}-${i * 10 + 10}`) }]);
  const { pdf: form, values } = await fiftyFieldForm();
  // The PDF worker threads start on first use (a few seconds from source under tsx): not part of a fill.
  await timedSteps(form, 2, [{ op: 'fill_form', fields: { field_1: 'warm' } }]);
  const fill = await timedSteps(form, 2, [{ op: 'fill_form', fields: values }]);
  const fillFlat = await timedSteps(form, 2, [{ op: 'fill_form', fields: values, flatten: true }]);
  rows.push(
    '',
    '| job | ms | result |',
    '|---|---|---|',
    `| split a 300-page PDF every page (one qpdf pass) | ${Math.round(split.ms)} | ${split.parts} parts, ${mb(split.bytes)} MB |`,
    `| split a 300-page PDF by 30 page ranges (a qpdf pass each) | ${Math.round(zipped.ms)} | ${zipped.parts} parts |`,
    `| fill a 50-field form (40 text, 10 check boxes) | ${Math.round(fill.ms)} | ${mb(fill.bytes)} MB |`,
    `| fill the same and flatten | ${Math.round(fillFlat.ms)} | ${mb(fillFlat.bytes)} MB |`,
  );
  return rows.join('\n');
}

if (isMain(import.meta.url))
  await printAlone(async () => {
    const out = await measurePdfTransform();
    process.exitCode = 0;
    setImmediate(() => process.exit(0));
    return out;
  });
