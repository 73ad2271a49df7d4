// Just enough of PDF's object syntax to read and write the plain (uncompressed) dictionaries
// Chromium's Skia backend writes: the incremental stamp (stamp-incremental.ts) reads page trees,
// page dictionaries and resources with it and writes changed copies. Streams' bytes are never
// decoded. Anything it does not expect throws, and the caller falls back to pdf-lib.

export type PdfValue =
  | { type: 'name'; value: string }
  | { type: 'number'; value: string }
  | { type: 'ref'; num: number; gen: number }
  | { type: 'dict'; entries: Map<string, PdfValue> }
  | { type: 'array'; items: PdfValue[] }
  /** Strings, booleans, null: kept as written. */
  | { type: 'raw'; text: string };

export class PdfSyntaxError extends Error {
  override readonly name = 'PdfSyntaxError';
}

const DELIMITER = /[\s()<>[\]{}/%]/;

/** Parses one value at `start` of `text` (latin1); answers it and where it ended. */
export function parseValue(text: string, start: number): { value: PdfValue; end: number } {
  let i = skipSpace(text, start);
  const char = text[i];
  if (char === '<' && text[i + 1] === '<') {
    i += 2;
    const entries = new Map<string, PdfValue>();
    for (;;) {
      i = skipSpace(text, i);
      if (text[i] === '>' && text[i + 1] === '>') return { value: { type: 'dict', entries }, end: i + 2 };
      if (text[i] !== '/') throw new PdfSyntaxError(`expected a name at ${i}`);
      const key = readToken(text, i + 1);
      const parsed = parseValue(text, key.end);
      entries.set(key.token, parsed.value);
      i = parsed.end;
    }
  }
  if (char === '[') {
    i += 1;
    const items: PdfValue[] = [];
    for (;;) {
      i = skipSpace(text, i);
      if (text[i] === ']') return { value: { type: 'array', items }, end: i + 1 };
      const parsed = parseValue(text, i);
      items.push(parsed.value);
      i = parsed.end;
    }
  }
  if (char === '/') {
    const name = readToken(text, i + 1);
    return { value: { type: 'name', value: name.token }, end: name.end };
  }
  if (char === '(') return { value: { type: 'raw', text: text.slice(i, literalEnd(text, i)) }, end: literalEnd(text, i) };
  if (char === '<') {
    const end = text.indexOf('>', i);
    if (end < 0) throw new PdfSyntaxError('unterminated hex string');
    return { value: { type: 'raw', text: text.slice(i, end + 1) }, end: end + 1 };
  }
  const token = readToken(text, i);
  if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(token.token)) {
    // "12 0 R" is a reference.
    const ref = /^\s+(\d+)\s+R(?=[\s/<>[\]()]|$)/.exec(text.slice(token.end, token.end + 24));
    if (/^\d+$/.test(token.token) && ref) return { value: { type: 'ref', num: Number(token.token), gen: Number(ref[1]) }, end: token.end + ref[0].length };
    return { value: { type: 'number', value: token.token }, end: token.end };
  }
  if (token.token === 'true' || token.token === 'false' || token.token === 'null') return { value: { type: 'raw', text: token.token }, end: token.end };
  throw new PdfSyntaxError(`unexpected "${token.token.slice(0, 20)}" at ${i}`);
}

export function serialize(value: PdfValue): string {
  switch (value.type) {
    case 'name':
      return `/${value.value}`;
    case 'number':
      return value.value;
    case 'ref':
      return `${value.num} ${value.gen} R`;
    case 'raw':
      return value.text;
    case 'array':
      return `[${value.items.map(serialize).join(' ')}]`;
    case 'dict':
      return `<<${[...value.entries].map(([key, item]) => `/${key} ${serialize(item)}`).join(' ')}>>`;
  }
}

/** The value with every reference's object number moved by `map`. */
export function renumber(value: PdfValue, map: (num: number) => number): PdfValue {
  switch (value.type) {
    case 'ref':
      return { type: 'ref', num: map(value.num), gen: 0 };
    case 'array':
      return { type: 'array', items: value.items.map((item) => renumber(item, map)) };
    case 'dict':
      return { type: 'dict', entries: new Map([...value.entries].map(([key, item]) => [key, renumber(item, map)])) };
    default:
      return value;
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length) {
    const char = text.charCodeAt(i);
    if (char === 37 /* % */) {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (char === 32 || char === 10 || char === 13 || char === 9 || char === 12 || char === 0) {
      i++;
    } else {
      break;
    }
  }
  return i;
}

function readToken(text: string, start: number): { token: string; end: number } {
  let end = start;
  while (end < text.length && !DELIMITER.test(text[end]!)) end++;
  if (end === start && text[start] !== '/') throw new PdfSyntaxError(`empty token at ${start}`);
  return { token: text.slice(start, end), end };
}

/** The index just past the literal string that opens at `start` (its balanced, unescaped closing parenthesis). */
export function literalEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return i + 1;
  }
  throw new PdfSyntaxError('unterminated string');
}
