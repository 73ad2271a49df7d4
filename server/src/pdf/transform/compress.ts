// The compress step. lossless: qpdf recompresses every Flate stream at level 9 and packs objects
// into object streams; pixels, fonts and text untouched. images: Ghostscript's pdfwrite first
// (images above 1.5× the target resolution downsampled to it and re-encoded at the JPEG quality,
// identical images kept once, fonts subset), then the lossless pass. Measured in bench/ and
// docs/decisions.md; text stays text either way.

import type { CompressStep } from './steps.ts';
import { qpdf, toolOnBytes } from './qpdf-file.ts';

/** The smaller document, or the input as it was when the tools made it larger. */
export async function compressPdf(pdf: Uint8Array, step: CompressStep, field: string): Promise<Uint8Array> {
  const distilled = step.mode === 'images' ? await toolOnBytes('gs', pdf, field, (input, output) => ghostscriptArgs(input, output, step)) : pdf;
  const packed = await losslessPass(distilled.byteLength < pdf.byteLength ? distilled : pdf, field);
  return packed.byteLength < pdf.byteLength ? packed : pdf;
}

/** qpdf's lossless pass: every Flate stream decoded and recompressed at level 9, objects in object streams. */
export function losslessPass(pdf: Uint8Array, field: string): Promise<Uint8Array> {
  return qpdf(pdf, field, ['--recompress-flate', '--compression-level=9', '--compress-streams=y', '--object-streams=generate']);
}

/** IJG quality (1-100) as Ghostscript's DCT QFactor: the same curve libjpeg scales its tables by. */
export function qFactorOf(quality: number): number {
  const scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
  return Math.max(0.01, Math.round(scale) / 100);
}

function ghostscriptArgs(input: string, output: string, step: CompressStep): string[] {
  const { dpi } = step;
  const q = qFactorOf(step.quality);
  const dict = `<< /QFactor ${q} /Blend 1 /HSamples [2 1 1 2] /VSamples [2 1 1 2] >>`;
  const image = (kind: 'Color' | 'Gray' | 'Mono', resolution: number) => [
    `-dDownsample${kind}Images=true`,
    `-d${kind}ImageDownsampleType=/${kind === 'Mono' ? 'Subsample' : 'Bicubic'}`,
    `-d${kind}ImageResolution=${resolution}`,
    `-d${kind}ImageDownsampleThreshold=1.5`,
  ];
  return [
    '-q',
    '-dNOPAUSE',
    '-dBATCH',
    '-dSAFER',
    '-sDEVICE=pdfwrite',
    '-dCompatibilityLevel=1.7',
    ...image('Color', dpi),
    ...image('Gray', dpi),
    // Scanned text in 1-bit images stays legible at twice the photos' resolution.
    ...image('Mono', Math.max(300, dpi * 2)),
    '-dAutoFilterColorImages=true',
    '-dAutoFilterGrayImages=true',
    '-dDetectDuplicateImages=true',
    '-dCompressFonts=true',
    '-dSubsetFonts=true',
    '-dPreserveAnnots=true',
    `-sOutputFile=${output}`,
    '-c',
    `<< /ColorACSImageDict ${dict} /GrayACSImageDict ${dict} /ColorImageDict ${dict} /GrayImageDict ${dict} >> setdistillerparams`,
    '-f',
    input,
  ];
}
