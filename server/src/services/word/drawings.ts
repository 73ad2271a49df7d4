// Barcodes, payment codes and charts in a Word template's data: a value {"barcode": {...}} or
// {"chart": {...}} is drawn by the same registry as <quire-barcode> / <quire-chart> in a page
// (render/quire-elements/registry.ts), and becomes an image value {image, width, height, alt} that
// fill.ts places as an SVG picture. A refusal is a 400 naming the data path and attribute.

import { ApiError } from '../../errors.ts';
import { decodeReferences } from '../../render/quire-elements/element-scan.ts';
import { ElementAttributeError } from '../../render/quire-elements/errors.ts';
import { MAX_ELEMENTS } from '../../render/quire-elements/expand.ts';
import { QUIRE_ELEMENTS } from '../../render/quire-elements/registry.ts';

/** The data keys that ask for a drawing, and the element that draws each. */
const DRAWN = { barcode: 'quire-barcode', chart: 'quire-chart' } as const;
type DrawnKey = keyof typeof DRAWN;

/**
 * The data with every {"barcode": {...}} and {"chart": {...}} value replaced by its drawing as an
 * image value (a copy; data without any is returned as it is). `data` is also what a chart's
 * {"$data": "path"} reads, as in a page.
 */
export async function drawWordDrawings(data: unknown): Promise<unknown> {
  const count = { drawings: 0 };
  return walk(data, 'data', data, count);
}

async function walk(value: unknown, path: string, data: unknown, count: { drawings: number }): Promise<unknown> {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    // One at a time: the drawing thread draws one anyway, and the count stays in order.
    for (const [index, item] of value.entries()) out.push(await walk(item, `${path}[${index}]`, data, count));
    return out;
  }
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value);
  const key = entries.length === 1 && Object.hasOwn(DRAWN, entries[0]![0]) ? (entries[0]![0] as DrawnKey) : undefined;
  if (key) {
    if (++count.drawings > MAX_ELEMENTS)
      throw new ApiError('invalid_request', `${path}.${key} is one drawing too many: a Word template's data may ask for at most ${MAX_ELEMENTS}.`);
    return drawn(key, entries[0]![1], `${path}.${key}`, data);
  }
  const out: Record<string, unknown> = {};
  for (const [name, item] of entries) out[name] = await walk(item, `${path}.${name}`, data, count);
  return out;
}

/** One drawing as an image value: the SVG at the size the drawer framed it (CSS px), its accessible name as alt text. */
async function drawn(key: DrawnKey, spec: unknown, path: string, data: unknown): Promise<Record<string, unknown>> {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec))
    throw new ApiError('invalid_request', `${path} must be an object of the ${DRAWN[key]} element's attributes (${example(key)}).`);
  const attributes = attributesOf(spec as Record<string, unknown>, path);
  let svg: string;
  try {
    svg = await QUIRE_ELEMENTS.get(DRAWN[key])!({ attributes, content: '', data });
  } catch (error) {
    if (!(error instanceof ElementAttributeError)) throw error;
    const where = error.attribute === 'content' ? path : `${path}.${error.attribute}`;
    throw new ApiError('invalid_request', `${where}: ${error.reason}.`);
  }
  const size = (name: string) => Number(new RegExp(`^\\s*<svg\\b[^>]*\\s${name}="([\\d.]+)(px)?"`).exec(svg)?.[1]) || undefined;
  const alt = /^\s*<svg\b[^>]*\saria-label="([^"]*)"/.exec(svg)?.[1];
  return {
    image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    ...(size('width') ? { width: size('width') } : {}),
    ...(size('height') ? { height: size('height') } : {}),
    ...(alt !== undefined ? { alt: decodeReferences(alt) } : {}),
  };
}

/** The element's attributes from JSON: text, numbers and true/false as text; a chart's option (an object) as its JSON. */
function attributesOf(spec: Record<string, unknown>, path: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec)) {
    if (typeof value === 'string') attributes[name] = value;
    else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') attributes[name] = String(value);
    else if (name === 'option' && typeof value === 'object' && value !== null) attributes[name] = JSON.stringify(value);
    else throw new ApiError('invalid_request', `${path}.${name} must be text, a number or true/false, as the element's attribute would be.`);
  }
  return attributes;
}

function example(key: DrawnKey): string {
  return key === 'barcode' ? '{"type": "qrcode", "data": "…", "width": "30mm"}' : '{"option": {…ECharts option…}, "width": "160mm", "height": "90mm"}';
}
