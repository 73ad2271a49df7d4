// A content stream's operators with where each starts (its first operand), where the operator
// itself stands and where it ends: the one reader of content syntax for the placements of images
// (content-placements.ts), the PDF/UA marked-content scan and the artifact wrapping (ua/).
// Strings, hex strings, dictionaries, arrays, names, comments and inline image data are stepped
// over as operands, never decoded. Bounded: past MAX_OPERATORS it stops.

export interface ContentOp {
  op: string;
  /** Byte offset of the first operand (or of the operator when it has none). */
  start: number;
  /** Byte offset of the operator (of BI for an inline image). */
  at: number;
  /** Byte offset just past the operator (past the data for an inline image's EI). */
  end: number;
}

/** Byte classes: 1 whitespace, 2 delimiter, 0 regular (a table: the scan looks at every byte of every page). */
const CLASS = new Uint8Array(256);
for (const byte of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CLASS[byte] = 1;
for (const byte of [0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]) CLASS[byte] = 2;

/** Reading a stream stops after this many operators (a content bomb must not hold a worker thread). */
export const MAX_OPERATORS = 2_000_000;

/** The operators of a content stream, in order. */
export function contentOps(content: Uint8Array): ContentOp[] {
  const ops: ContentOp[] = [];
  forEachOperator(content, (op) => {
    ops.push(op);
  });
  return ops;
}

/** Calls `visit` with each operator in order, up to MAX_OPERATORS. */
export function forEachOperator(content: Uint8Array, visit: (op: ContentOp) => void): void {
  const length = content.length;
  let operandStart = -1;
  let operators = 0;
  let at = 0;
  while (at < length && operators < MAX_OPERATORS) {
    const byte = content[at]!;
    const kind = CLASS[byte];
    if (kind === 1) {
      at++;
      continue;
    }
    const from = at;
    if (byte === 0x25) {
      while (at < length && content[at] !== 0x0a && content[at] !== 0x0d) at++;
      continue;
    }
    if (kind === 2) {
      if (byte === 0x28) at = literalEnd(content, at);
      else if (byte === 0x3c && content[at + 1] !== 0x3c) {
        const end = content.indexOf(0x3e, at);
        at = end < 0 ? length : end + 1;
      } else if (byte === 0x2f) at = tokenEnd(content, at + 1);
      else at += (byte === 0x3c || byte === 0x3e) && content[at + 1] === byte ? 2 : 1;
      if (operandStart < 0) operandStart = from;
      continue;
    }
    const end = tokenEnd(content, at);
    // A number (or true, false, null) is an operand; any other word is an operator.
    if ((byte >= 0x30 && byte <= 0x39) || byte === 0x2b || byte === 0x2d || byte === 0x2e || isKeyword(content, at, end)) {
      if (operandStart < 0) operandStart = from;
      at = end;
      continue;
    }
    let word = '';
    for (let i = at; i < end; i++) word += String.fromCharCode(content[i]!);
    const start = operandStart < 0 ? at : operandStart;
    const operator = at;
    at = word === 'BI' ? inlineImageEnd(content, end) : end;
    visit({ op: word === 'BI' ? 'EI' : word, start, at: operator, end: at });
    operandStart = -1;
    operators++;
  }
}

function isKeyword(content: Uint8Array, from: number, to: number): boolean {
  const size = to - from;
  if (size !== 4 && size !== 5) return false;
  const word = Buffer.from(content.buffer, content.byteOffset + from, size).toString('latin1');
  return word === 'true' || word === 'false' || word === 'null';
}

function tokenEnd(content: Uint8Array, from: number): number {
  let end = from;
  while (end < content.length && CLASS[content[end]!] === 0) end++;
  return Math.max(end, from + 1);
}

function literalEnd(content: Uint8Array, from: number): number {
  let depth = 0;
  for (let at = from; at < content.length; at++) {
    const byte = content[at]!;
    if (byte === 0x5c) at++;
    else if (byte === 0x28) depth++;
    else if (byte === 0x29 && --depth === 0) return at + 1;
  }
  return content.length;
}

/** Past an inline image: its data runs from ID to an EI standing alone. */
function inlineImageEnd(content: Uint8Array, from: number): number {
  const space = (at: number) => at >= content.length || CLASS[content[at]!] === 1;
  let at = from;
  for (; at < content.length - 2; at++) {
    if (content[at] === 0x49 && content[at + 1] === 0x44 && space(at - 1) && space(at + 2)) break;
  }
  for (at += 3; at < content.length - 1; at++) {
    if (content[at] === 0x45 && content[at + 1] === 0x49 && space(at - 1) && space(at + 2)) return at + 2;
  }
  return content.length;
}

/** The operators that put marks on the page (text shown, paths painted, images and forms drawn, shadings). */
export const PAINTING = new Set(['Tj', 'TJ', "'", '"', 'Do', 'sh', 'EI', 'S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*']);

/** The text of an operator's operands (latin1), for BDC, BMC, cm and Do. */
export function operandsOf(content: Uint8Array, op: ContentOp): string {
  return Buffer.from(content.buffer, content.byteOffset + op.start, op.at - op.start).toString('latin1');
}
