// CSS lengths and margin shorthands in CSS pixels: the paper, margin and header/footer heights of
// PdfOptions are all given this way.

// Absolute CSS units only: relative ones (em, %, vw) have nothing to be relative to on a sheet.
const CSS_PX_PER_UNIT: Record<string, number> = { px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4, q: 96 / 101.6, pt: 96 / 72, pc: 16 };
const LENGTH = /^(\d+(?:\.\d+)?|\.\d+)(px|in|cm|mm|q|pt|pc)?$/i;

/** Parses one CSS length ("1cm", "12pt", "0") into CSS pixels, or undefined if it is not one. */
export function cssLengthToPx(length: string): number | undefined {
  const match = LENGTH.exec(length.trim());
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = match[2]?.toLowerCase();
  if (unit === undefined) return value === 0 ? 0 : undefined;
  return value * CSS_PX_PER_UNIT[unit]!;
}

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** Parses a CSS margin shorthand of one to four absolute lengths into pixels per side. */
export function parseMargin(margin: string): Margins | undefined {
  const parts = margin.trim().split(/\s+/);
  if (parts.length < 1 || parts.length > 4) return undefined;
  const px = parts.map(cssLengthToPx);
  if (px.some((value) => value === undefined)) return undefined;
  const [top, right = top, bottom = top, left = right] = px as number[];
  return { top: top!, right: right!, bottom: bottom!, left: left! };
}
