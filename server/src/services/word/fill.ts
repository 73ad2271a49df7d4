// Fills a Word template with a render's data (easy-template-x): dotted paths reach into nested
// data as in HTML templates ({customer.name}); a value that is an image (a data URL, or
// {image, width, height}) becomes a picture: a logo, a signature scan, a barcode or chart drawn
// from data (drawings.ts). Bad data (an image that is not one) is a 400 naming its path.

import { MimeType, TemplateDataError, TemplateHandler, TemplateHandlerOptions, type ImageFormat, type ScopeDataArgs } from 'easy-template-x';
import { ApiError } from '../../errors.ts';
import { drawWordDrawings } from './drawings.ts';
import { wordBytesOf, wordSyntaxError } from './template.ts';

/** Images wider than this (CSS pixels, about the width of an A4 page's text) are scaled down to it. */
const MAX_IMAGE_WIDTH = 600;
/** The size an SVG without width and height gets, in CSS pixels. */
const SVG_DEFAULT_SIZE = 150;

const FORMATS: Record<string, ImageFormat> = {
  png: MimeType.Png,
  jpeg: MimeType.Jpeg,
  jpg: MimeType.Jpeg,
  gif: MimeType.Gif,
  'svg+xml': MimeType.Svg,
  svg: MimeType.Svg,
};

const handler = new TemplateHandler(new TemplateHandlerOptions({ scopeDataResolver: resolveDotted }));

/** The docx of a Word template (base64, as stored) filled with data. */
export async function fillWordTemplate(base64: string, data: unknown): Promise<Uint8Array> {
  const prepared = withImages(await drawWordDrawings(data ?? {}), 'data');
  try {
    return new Uint8Array(await handler.process(wordBytesOf(base64), prepared as Record<string, never>));
  } catch (error) {
    if (error instanceof TemplateDataError) throw new ApiError('invalid_request', `data does not fit the Word template: ${error.message}`);
    throw wordSyntaxError(error);
  }
}

/**
 * easy-template-x looks a name up in the innermost loop's item, then outwards; Quire's names may
 * be dotted paths ("customer.name"), so each part of the path is split on its dots first.
 */
function resolveDotted({ strPath, data }: ScopeDataArgs): never {
  const parts = strPath.map((part) => part.split('.'));
  const last = parts.at(-1) ?? [];
  for (let depth = parts.length - 1; depth >= 0; depth--) {
    const found = lookup(data, [...parts.slice(0, depth).flat(), ...last]);
    if (found !== undefined) return found as never;
  }
  return undefined as never;
}

function lookup(data: unknown, path: string[]): unknown {
  let current = data;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The data with every image value made an easy-template-x image (a copy: the caller's data is left as it is). */
function withImages(value: unknown, path: string): unknown {
  if (typeof value === 'string') return value.startsWith('data:image/') ? imageOf(value, undefined, path) : value;
  if (Array.isArray(value)) return value.map((item, index) => withImages(item, `${path}[${index}]`));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (typeof record.image === 'string' && Object.keys(record).every((key) => ['image', 'width', 'height', 'alt'].includes(key)))
    return imageOf(record.image, record, path);
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, withImages(item, `${path}.${key}`)]));
}

/** A data URL (or, inside {image}, plain base64 of a PNG or SVG) as an image of its own size or the size asked for. */
function imageOf(source: string, sized: Record<string, unknown> | undefined, path: string) {
  const match = /^data:image\/([a-z+]+);base64,(.*)$/s.exec(source);
  const bytes = Buffer.from(match ? match[2]! : source, 'base64');
  const format = sniff(bytes);
  // The bytes must be the image the data URL names (a PNG that is not one would leave LibreOffice an empty box).
  if (!format || (match && FORMATS[match[1]!] !== format))
    throw new ApiError(
      'invalid_request',
      `${path} is not an image: give a data URL (data:image/png;base64,… or data:image/svg+xml;base64,…) or {image, width, height}.`,
    );
  const natural = naturalSize(bytes, format);
  const width = numberOr(sized?.width, path, 'width') ?? natural.width;
  const height =
    numberOr(sized?.height, path, 'height') ?? (sized?.width !== undefined ? Math.round((width * natural.height) / natural.width) : natural.height);
  const scale = Math.min(1, MAX_IMAGE_WIDTH / width);
  const alt = typeof sized?.alt === 'string' ? sized.alt : undefined;
  return { _type: 'image', source: bytes, format, width: Math.round(width * scale), height: Math.round(height * scale), altText: alt };
}

function numberOr(value: unknown, path: string, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 5000)
    throw new ApiError('invalid_request', `${path}.${field} must be a number of pixels from 1 to 5000.`);
  return value;
}

function sniff(bytes: Buffer): ImageFormat | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))) return MimeType.Png;
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return MimeType.Jpeg;
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return MimeType.Gif;
  if (/^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/.test(bytes.subarray(0, 512).toString('utf8'))) return MimeType.Svg;
  return undefined;
}

/** An image's own size in pixels: a PNG's header, an SVG's width and height (or viewBox); others a default. */
function naturalSize(bytes: Buffer, format: ImageFormat): { width: number; height: number } {
  if (format === MimeType.Png && bytes.byteLength >= 24) return { width: bytes.readUInt32BE(16) || 1, height: bytes.readUInt32BE(20) || 1 };
  if (format === MimeType.Svg) {
    const head = bytes.subarray(0, 2048).toString('utf8');
    const size = (name: string) => Number(new RegExp(`<svg[^>]*\\s${name}="([\\d.]+)(px)?"`).exec(head)?.[1]) || undefined;
    const box = /viewBox="[\d.-]+[\s,]+[\d.-]+[\s,]+([\d.]+)[\s,]+([\d.]+)"/.exec(head);
    const width = (size('width') ?? Number(box?.[1])) || SVG_DEFAULT_SIZE;
    const height = (size('height') ?? Number(box?.[2])) || SVG_DEFAULT_SIZE;
    return { width, height };
  }
  return { width: SVG_DEFAULT_SIZE, height: SVG_DEFAULT_SIZE };
}
