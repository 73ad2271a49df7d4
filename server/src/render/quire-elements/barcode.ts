// <quire-barcode type="..." data="..."> drawn as an SVG by bwip-js (MIT, on the drawing thread: drawing-pool.ts): Code 128, EAN-13, UPC-A,
// QR, DataMatrix and PDF417, as vectors that print sharp at any size. Data the symbology refuses
// (a letter in an EAN-13, a wrong check digit, too much for the symbol) is an ElementAttributeError
// naming `data` with bwip-js's own reason.

import { ElementAttributeError } from './errors.ts';
import { DrawingFailedError, drawOnThread } from './drawing-pool.ts';
import { checkAttributeNames, choiceAttribute, frameSvg, numberAttribute } from './svg-frame.ts';

export const BARCODE_TYPES = ['qrcode', 'code128', 'ean13', 'upca', 'datamatrix', 'pdf417'] as const;
type BarcodeType = (typeof BARCODE_TYPES)[number];

const LINEAR: readonly BarcodeType[] = ['code128', 'ean13', 'upca'];
const NAMES: Record<BarcodeType, string> = {
  qrcode: 'QR code',
  code128: 'Code 128',
  ean13: 'EAN-13',
  upca: 'UPC-A',
  datamatrix: 'DataMatrix',
  pdf417: 'PDF417',
};
// The largest QR code holds 7,089 digits; nothing any of these symbols holds is longer.
const MAX_DATA = 7089;
const ATTRIBUTES = ['type', 'data', 'scale', 'text', 'ec-level', 'bar-height'];
// bwip-js draws in points (1/72 in) at scale 1: an EAN-13's bars are then its nominal 0.33 mm.
const PX_PER_POINT = 96 / 72;

/** The SVG of one <quire-barcode>, from its attributes; throws ElementAttributeError naming the attribute at fault. */
export async function drawBarcode(attributes: Record<string, string>): Promise<string> {
  checkAttributeNames(attributes, ATTRIBUTES);
  const type = choiceAttribute(attributes, 'type', BARCODE_TYPES);
  if (!type) throw new ElementAttributeError('type', `is required: one of ${BARCODE_TYPES.join(', ')}`);
  const data = attributes.data;
  if (data === undefined || data === '') throw new ElementAttributeError('data', 'is required: the text the barcode encodes');
  if (data.length > MAX_DATA) throw new ElementAttributeError('data', `is ${data.length} characters long; a barcode holds at most ${MAX_DATA}`);
  const scale = numberAttribute(attributes, 'scale', 0.25, 20, 1);
  const options: Record<string, unknown> = { bcid: type, text: data, scale: 1 };
  if (attributes.text !== undefined) {
    if (!LINEAR.includes(type)) throw new ElementAttributeError('text', `applies to ${LINEAR.join(', ')} only (the text below the bars), not ${type}`);
    options.includetext = choiceAttribute(attributes, 'text', ['true', 'false']) === 'true';
  } else options.includetext = type === 'ean13' || type === 'upca';
  if (options.includetext) options.textxalign = 'center';
  if (attributes['bar-height'] !== undefined) {
    if (!LINEAR.includes(type)) throw new ElementAttributeError('bar-height', `applies to ${LINEAR.join(', ')} only, not ${type}`);
    options.height = numberAttribute(attributes, 'bar-height', 2, 200, 0);
  }
  if (attributes['ec-level'] !== undefined) options.eclevel = ecLevel(type, attributes['ec-level']);
  else if (type === 'qrcode') options.eclevel = 'M';
  let svg: string;
  try {
    // On the drawing thread: a large PDF417 or DataMatrix takes bwip-js a tenth of a second or more.
    svg = await drawOnThread({ kind: 'barcode', options });
  } catch (error) {
    if (!(error instanceof DrawingFailedError)) throw error;
    throw new ElementAttributeError('data', error.overBound ? error.reason : `is not a valid ${NAMES[type]}: ${reasonOf(error.reason)}`);
  }
  const viewBox = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  const natural = { width: Number(viewBox?.[1] ?? 100) * scale * PX_PER_POINT, height: Number(viewBox?.[2] ?? 100) * scale * PX_PER_POINT };
  return frameSvg(svg, attributes, natural, `${NAMES[type]}: ${data}`);
}

/** The error correction of a QR code (L, M, Q, H) or a PDF417 (0-8); no other symbol takes one. */
function ecLevel(type: BarcodeType, value: string): string {
  if (type === 'qrcode') return choiceAttribute({ 'ec-level': value }, 'ec-level', ['L', 'M', 'Q', 'H']) ?? 'M';
  if (type === 'pdf417') {
    if (!/^[0-8]$/.test(value.trim())) throw new ElementAttributeError('ec-level', `of a PDF417 must be a level from 0 to 8, not "${value}"`);
    return value.trim();
  }
  throw new ElementAttributeError('ec-level', `applies to qrcode (L, M, Q, H) and pdf417 (0-8) only, not ${type}`);
}

// bwip-js's messages read "bwipp.ean13badCheckDigit#6915: Incorrect EAN-13 check digit provided".
function reasonOf(message: string): string {
  return message.replace(/^\S+#\d+:\s*/, '').replace(/\.$/, '');
}
