// What every element's SVG shares: its box (width and height as CSS lengths, or a natural size),
// the attributes passed through to the <svg> (class, id, style, an accessible name), and escaping.
// The markup around the drawing is written here, never from the document's text unescaped.

import { cssLengthToPx } from '../css-length.ts';
import { ElementAttributeError } from './errors.ts';

/** Attributes any element takes besides its own. */
export const FRAME_ATTRIBUTES = ['width', 'height', 'class', 'id', 'style', 'alt'] as const;

// Up to a metre: far beyond any sheet, small enough that nothing downstream overflows.
const MAX_PX = 3780;

/** Refuses an attribute the element does not know (a typo would otherwise be silently ignored); aria-* pass through to the <svg>, data-* are let be. */
export function checkAttributeNames(attributes: Record<string, string>, known: readonly string[]): void {
  for (const name of Object.keys(attributes)) {
    if (known.includes(name) || (FRAME_ATTRIBUTES as readonly string[]).includes(name) || /^(aria|data)-/.test(name)) continue;
    throw new ElementAttributeError(name, `is not an attribute of this element; it takes ${[...known, ...FRAME_ATTRIBUTES].join(', ')}`);
  }
}

/** A CSS length attribute in CSS pixels, or undefined when absent. */
export function lengthAttribute(attributes: Record<string, string>, name: string): number | undefined {
  const value = attributes[name];
  if (value === undefined) return undefined;
  const px = cssLengthToPx(value);
  if (px === undefined || px <= 0 || px > MAX_PX)
    throw new ElementAttributeError(name, `must be an absolute CSS length above 0 and at most 1 m ("30mm", "1.5in", "120px"), not "${value}"`);
  return px;
}

/** A number attribute within bounds, or the fallback when absent. */
export function numberAttribute(attributes: Record<string, string>, name: string, min: number, max: number, fallback: number): number {
  const value = attributes[name];
  if (value === undefined) return fallback;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < min || number > max)
    throw new ElementAttributeError(name, `must be a number from ${min} to ${max}, not "${value}"`);
  return number;
}

/** One of a fixed set of values (compared in lower case), or the fallback when absent. */
export function choiceAttribute<T extends string>(attributes: Record<string, string>, name: string, choices: readonly T[], fallback?: T): T | undefined {
  const value = attributes[name];
  if (value === undefined) return fallback;
  const choice = choices.find((one) => one.toLowerCase() === value.trim().toLowerCase());
  if (!choice) throw new ElementAttributeError(name, `must be one of ${choices.join(', ')}, not "${value}"`);
  return choice;
}

/**
 * Puts a drawing (an <svg> with a viewBox, ours) into its frame: the box from width/height (one
 * given: the other follows the drawing's proportions), else the natural size; the passed-through
 * attributes escaped; an accessible name (alt, else `label`).
 */
export function frameSvg(svg: string, attributes: Record<string, string>, natural: { width: number; height: number }, label: string): string {
  const viewBox = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  const ratio = viewBox ? Number(viewBox[2]) / Number(viewBox[1]) : natural.height / natural.width;
  let width = lengthAttribute(attributes, 'width');
  let height = lengthAttribute(attributes, 'height');
  if (width === undefined && height === undefined) ({ width, height } = natural);
  else if (width === undefined) width = height! / ratio;
  else if (height === undefined) height = width * ratio;
  const own = [`width="${round(width!)}px"`, `height="${round(height!)}px"`, 'role="img"', `aria-label="${escapeAttribute(attributes.alt ?? label)}"`];
  for (const name of ['class', 'id', 'style'] as const) if (attributes[name] !== undefined) own.push(`${name}="${escapeAttribute(attributes[name])}"`);
  for (const [name, value] of Object.entries(attributes))
    if (/^aria-[a-z-]+$/.test(name) && name !== 'aria-label') own.push(`${name}="${escapeAttribute(value)}"`);
  // The drawing's own size gives way to the frame's; the viewBox scales the drawing into it.
  return svg.replace(/^\s*<svg\b([^>]*)>/, (_, rest: string) => `<svg ${own.join(' ')}${rest.replace(/\s(?:width|height)="[^"]*"/g, '')}>`);
}

/** Escapes a value for a double-quoted attribute. */
export function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function round(px: number): number {
  return Math.round(px * 100) / 100;
}
