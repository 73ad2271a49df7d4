// <quire-chart> drawn as an SVG by ECharts' server-side renderer (Apache-2.0): the element's content,
// or its option / data-option attribute, is an ECharts option in JSON; `{"$data": "path"}` anywhere
// in it takes that value from the template's data. Drawn once, with animation off, so nothing is
// caught half-way; text stays text in the page's font, so the PDF has the axis labels as text.
// This module reads and bounds the option; chart-draw.ts draws it, on a thread (drawing-pool.ts).

import { ElementAttributeError } from './errors.ts';
import { checkAttributeNames, frameSvg, lengthAttribute } from './svg-frame.ts';
import type { ElementInput } from './registry.ts';
import { DrawingFailedError, drawOnThread } from './drawing-pool.ts';

/** Bounds on one chart: its option's JSON text, the values in it (points, labels), its nesting. */
export const CHART_LIMITS = { optionBytes: 256 * 1024, values: 20_000, depth: 24 } as const;

const ATTRIBUTES = ['option', 'data-option'];
const DEFAULT_SIZE = { width: 600, height: 360 };

/** The SVG of one <quire-chart>; throws ElementAttributeError naming the attribute (or content) at fault. */
export async function drawChart({ attributes, content, data }: ElementInput): Promise<string> {
  checkAttributeNames(attributes, ATTRIBUTES);
  const [source, text] = optionText(attributes, content);
  if (Buffer.byteLength(text, 'utf8') > CHART_LIMITS.optionBytes)
    throw new ElementAttributeError(source, `is larger than ${CHART_LIMITS.optionBytes / 1024} KB of JSON, the limit for one chart`);
  let option: unknown;
  try {
    option = JSON.parse(text);
  } catch (error) {
    throw new ElementAttributeError(source, `is not an ECharts option in JSON: ${(error as Error).message}`);
  }
  option = withData(option, data, source, { values: 0 }, 0, true);
  if (typeof option !== 'object' || option === null || Array.isArray(option))
    throw new ElementAttributeError(source, 'must be a JSON object (an ECharts option)');
  const width = lengthAttribute(attributes, 'width') ?? DEFAULT_SIZE.width;
  const height = lengthAttribute(attributes, 'height') ?? DEFAULT_SIZE.height;
  // Drawn on a worker thread with a time and memory bound: some options (a pictorial bar repeating
  // tiny symbols) take seconds and tens of MB, which must not stall the server (drawing-pool.ts).
  let svg: string;
  try {
    svg = await drawOnThread({ kind: 'chart', option: option as Record<string, unknown>, width: Math.round(width), height: Math.round(height) });
  } catch (error) {
    if (!(error instanceof DrawingFailedError)) throw error;
    const advice = error.overBound ? '; draw fewer symbols or points' : '';
    throw new ElementAttributeError(source, error.overBound ? `${error.reason}${advice}` : `is an option ECharts cannot draw: ${error.reason}`);
  }
  const title = (option as { title?: { text?: unknown } | { text?: unknown }[] }).title;
  const label = [title].flat().find((one) => typeof one?.text === 'string')?.text as string | undefined;
  return frameSvg(svg, { ...attributes, width: `${width}px`, height: `${height}px` }, { width, height }, label ?? 'Chart');
}

/** Where the option is written: the option attribute, data-option, or the content. */
function optionText(attributes: Record<string, string>, content: string): [string, string] {
  for (const name of ATTRIBUTES) if (attributes[name] !== undefined) return [name, attributes[name]];
  if (content.trim() === '') throw new ElementAttributeError('content', 'is empty: give the ECharts option as JSON in the element or in its option attribute');
  return ['content', content];
}

/** The option with each {"$data": "a.b"} replaced by the template data's value there, counting values and depth as it goes. */
function withData(value: unknown, data: unknown, source: string, count: { values: number }, depth: number, resolving: boolean): unknown {
  if (depth > CHART_LIMITS.depth) throw new ElementAttributeError(source, `nests deeper than ${CHART_LIMITS.depth} levels`);
  if (++count.values > CHART_LIMITS.values)
    throw new ElementAttributeError(
      source,
      `has more than ${CHART_LIMITS.values.toLocaleString('en')} values (points, labels, settings); a chart draws at most that many`,
    );
  if (Array.isArray(value)) return value.map((item) => withData(item, data, source, count, depth + 1, resolving));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value);
  if (resolving && entries.length === 1 && entries[0]![0] === '$data') {
    const path = entries[0]![1];
    if (typeof path !== 'string') throw new ElementAttributeError(source, 'has a "$data" that is not a path ("sales.months")');
    const found = lookup(data, path);
    if (found === undefined) throw new ElementAttributeError(source, `asks for "$data": "${path}", which the template data does not have`);
    // What the data holds is taken as it is: a "$data" inside it is not looked up again.
    return withData(found, undefined, source, count, depth + 1, false);
  }
  return Object.fromEntries(entries.map(([key, item]) => [key, withData(item, data, source, count, depth + 1, resolving)]));
}

/** A dotted path in the data, own properties only (as placeholders resolve: docs/api.md#placeholders). */
function lookup(data: unknown, path: string): unknown {
  let value = data;
  for (const name of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, name)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}
