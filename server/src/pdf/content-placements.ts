// Where a content stream draws its XObjects: a small reader of PDF content syntax that follows the
// graphics state's matrix (q, Q, cm) and reports each Do with the matrix in force, and each inline
// image (BI ... ID ... EI) with its size. Everything else (text, paths, colours) is skipped, so
// reading a page costs one pass over its bytes. Bounded: past MAX_OPERATORS it stops.

export type Matrix = [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

export type Placement = { kind: 'xobject'; name: string; matrix: Matrix } | { kind: 'inline'; width: number; height: number; matrix: Matrix };

/** Reading a page stops after this many operators (a content bomb must not hold a worker thread). */
const MAX_OPERATORS = 2_000_000;
/** The graphics state stack PDF readers allow (ISO 32000-1, C.2: 28 in old viewers; we take more). */
const MAX_DEPTH = 256;

/** m × n: n applied after m, as PDF concatenates (cm pre-multiplies the current matrix). */
export function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

/** The XObjects and inline images a content stream draws, each with the matrix it is drawn in (start: the matrix in force before it). */
export function placementsIn(content: Uint8Array, start: Matrix = IDENTITY): Placement[] {
  const placements: Placement[] = [];
  const stack: Matrix[] = [];
  let ctm = start;
  // Operands are kept as where they are in the bytes and decoded only for the few operators read
  // (cm, Do): most of a page is text whose operands nobody here needs.
  const operands: [number, number][] = [];
  const text = (at: number) => Buffer.from(content.buffer, content.byteOffset + operands[at]![0], operands[at]![1] - operands[at]![0]).toString('latin1');
  let operators = 0;
  let at = 0;
  const length = content.length;
  while (at < length && operators < MAX_OPERATORS) {
    const byte = content[at]!;
    if (WHITESPACE.has(byte)) {
      at++;
      continue;
    }
    if (byte === 0x25) {
      while (at < length && content[at] !== 0x0a && content[at] !== 0x0d) at++;
      continue;
    }
    if (byte === 0x28) {
      const end = skipLiteralString(content, at);
      operands.push([at, end]);
      at = end;
      continue;
    }
    if (byte === 0x3c && content[at + 1] !== 0x3c) {
      const end = content.indexOf(0x3e, at);
      operands.push([at, end < 0 ? length : end + 1]);
      at = end < 0 ? length : end + 1;
      continue;
    }
    if (byte === 0x2f) {
      const end = tokenEnd(content, at + 1);
      operands.push([at, end]);
      at = end;
      continue;
    }
    if (DELIMITERS.has(byte)) {
      // Arrays and dictionaries as operands (TJ, BDC): their parts are pushed and dropped with the operator.
      at += byte === 0x3c || byte === 0x3e ? 2 : 1;
      continue;
    }
    const end = tokenEnd(content, at);
    // A number (or true, false, null) is an operand; any other word is an operator.
    if ((byte >= 0x30 && byte <= 0x39) || byte === 0x2b || byte === 0x2d || byte === 0x2e || isKeyword(content, at, end)) {
      operands.push([at, end]);
      at = end;
      continue;
    }
    const size = end - at;
    const first = content[at];
    at = end;
    operators++;
    if (size === 1 && first === 0x71) {
      if (stack.length < MAX_DEPTH) stack.push(ctm);
    } else if (size === 1 && first === 0x51) ctm = stack.pop() ?? ctm;
    else if (size === 2 && first === 0x63 && content[end - 1] === 0x6d && operands.length >= 6) {
      const m = operands.slice(-6).map((_, i) => Number(text(operands.length - 6 + i)));
      if (m.every(Number.isFinite)) ctm = multiply(m as Matrix, ctm);
    } else if (size === 2 && first === 0x44 && content[end - 1] === 0x6f && operands.length > 0) {
      const name = text(operands.length - 1);
      if (name.startsWith('/')) placements.push({ kind: 'xobject', name: name.slice(1), matrix: ctm });
    } else if (size === 2 && first === 0x42 && content[end - 1] === 0x49) {
      const inline = readInlineImage(content, at);
      placements.push({ kind: 'inline', width: inline.width, height: inline.height, matrix: ctm });
      at = inline.end;
    }
    operands.length = 0;
  }
  return placements;
}

function isKeyword(content: Uint8Array, from: number, to: number): boolean {
  const size = to - from;
  if (size !== 4 && size !== 5) return false;
  const word = Buffer.from(content.buffer, content.byteOffset + from, size).toString('latin1');
  return word === 'true' || word === 'false' || word === 'null';
}

function tokenEnd(content: Uint8Array, from: number): number {
  let end = from;
  while (end < content.length && !WHITESPACE.has(content[end]!) && !DELIMITERS.has(content[end]!)) end++;
  return end;
}

function skipLiteralString(content: Uint8Array, from: number): number {
  let depth = 0;
  for (let at = from; at < content.length; at++) {
    const byte = content[at]!;
    if (byte === 0x5c) at++;
    else if (byte === 0x28) depth++;
    else if (byte === 0x29 && --depth === 0) return at + 1;
  }
  return content.length;
}

/** An inline image's /W and /H (or /Width, /Height) and where its data ends: after "EI" standing alone. */
function readInlineImage(content: Uint8Array, from: number): { width: number; height: number; end: number } {
  const text = Buffer.from(content.subarray(from, Math.min(content.length, from + 4096))).toString('latin1');
  const id = /\sID[\s]/.exec(text);
  const dict = id ? text.slice(0, id.index) : text;
  const width = Number(/\/(?:W|Width)\s+(\d+)/.exec(dict)?.[1] ?? 0);
  const height = Number(/\/(?:H|Height)\s+(\d+)/.exec(dict)?.[1] ?? 0);
  let at = from + (id ? id.index + id[0].length : 0);
  for (; at < content.length - 2; at++) {
    if (content[at] === 0x45 && content[at + 1] === 0x49 && WHITESPACE.has(content[at - 1]!) && (at + 2 >= content.length || WHITESPACE.has(content[at + 2]!)))
      return { width, height, end: at + 2 };
  }
  return { width, height, end: content.length };
}
