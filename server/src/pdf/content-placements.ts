// Where a content stream draws its XObjects: a small reader of PDF content syntax that follows the
// graphics state's matrix (q, Q, cm) and reports each Do with the matrix in force, and each inline
// image (BI ... ID ... EI) with its size, on the operators content-ops.ts reads. Everything else
// (text, paths, colours) is skipped, so reading a page costs one pass over its bytes.

import { forEachOperator, operandsOf } from './content-ops.ts';

export type Matrix = [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

export type Placement = { kind: 'xobject'; name: string; matrix: Matrix } | { kind: 'inline'; width: number; height: number; matrix: Matrix };

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

/** The XObjects and inline images a content stream draws, each with the matrix it is drawn in (start: the matrix in force before it). */
export function placementsIn(content: Uint8Array, start: Matrix = IDENTITY): Placement[] {
  const placements: Placement[] = [];
  const stack: Matrix[] = [];
  let ctm = start;
  // Operands are decoded only for the few operators read (cm, Do): most of a page is text whose
  // operands nobody here needs.
  forEachOperator(content, (op) => {
    if (op.op === 'q') {
      if (stack.length < MAX_DEPTH) stack.push(ctm);
    } else if (op.op === 'Q') ctm = stack.pop() ?? ctm;
    else if (op.op === 'cm') {
      const m = operandsOf(content, op).trim().split(/\s+/).slice(-6).map(Number);
      if (m.length === 6 && m.every(Number.isFinite)) ctm = multiply(m as Matrix, ctm);
    } else if (op.op === 'Do') {
      const name = /\/([^\s/]+)\s*$/.exec(operandsOf(content, op))?.[1];
      if (name) placements.push({ kind: 'xobject', name, matrix: ctm });
    } else if (op.op === 'EI') {
      const inline = inlineImageSize(content, op.at + 2);
      placements.push({ kind: 'inline', width: inline.width, height: inline.height, matrix: ctm });
    }
  });
  return placements;
}

/** An inline image's /W and /H (or /Width, /Height), from its dictionary after BI. */
function inlineImageSize(content: Uint8Array, from: number): { width: number; height: number } {
  const text = Buffer.from(content.subarray(from, Math.min(content.length, from + 4096))).toString('latin1');
  const id = /\sID[\s]/.exec(text);
  const dict = id ? text.slice(0, id.index) : text;
  return { width: Number(/\/(?:W|Width)\s+(\d+)/.exec(dict)?.[1] ?? 0), height: Number(/\/(?:H|Height)\s+(\d+)/.exec(dict)?.[1] ?? 0) };
}
