// A QR code as SVG vectors, drawn by bwip-js (MIT). Both payment codes use it with error correction
// M, as their specifications ask; the text is encoded as UTF-8 bytes (bwip-js's default), which is
// the character set both payloads declare ("1").

import bwipjs from 'bwip-js';
import { PaymentDataError } from './errors.ts';

export interface QrSvgOptions {
  /** The largest QR version the specification allows (EPC: 13, Swiss QR-bill: 25). */
  maxVersion: number;
  /** The field the payload comes from, for the error when it does not fit. */
  field: string;
}

export interface QrSvg {
  /** The SVG element with a viewBox and no size: the caller gives it width and height. */
  svg: string;
  /** Modules per side, quiet zone excluded. */
  modules: number;
}

/** bwip-js's types leave out each symbology's own options, the QR code's error correction level among them. */
type QrRenderOptions = Parameters<typeof bwipjs.toSVG>[0] & { eclevel: 'L' | 'M' | 'Q' | 'H' };

/** Units per module at scale 1 in bwip-js's SVG. */
const UNIT = 2;

/** The QR code of `text` with a quiet zone of `quietModules` modules (4 for a code on its own, 0 inside a drawing that keeps its own margin). */
export function qrSvg(text: string, quietModules: number, options: QrSvgOptions): QrSvg {
  const padding = quietModules * UNIT;
  const render: QrRenderOptions = { bcid: 'qrcode', text, eclevel: 'M', scale: 1, paddingwidth: padding, paddingheight: padding, backgroundcolor: 'FFFFFF' };
  const svg = bwipjs.toSVG(render);
  const side = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const modules = (side - 2 * padding) / UNIT;
  // Version v has 17 + 4v modules a side.
  const version = (modules - 17) / 4;
  if (version > options.maxVersion)
    throw new PaymentDataError(options.field, `the payload needs QR version ${version}; the specification allows at most ${options.maxVersion}.`);
  return { svg, modules };
}

/** The SVG element's opening tag given more attributes (size, position, role). */
export function withAttributes(svg: string, attributes: Record<string, string>): string {
  const text = Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('');
  return svg.replace(/^<svg /, `<svg${text} `);
}

/** Text made safe inside an XML attribute or element. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
