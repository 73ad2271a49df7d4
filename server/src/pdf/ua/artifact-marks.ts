// Rewrites a content stream's marked content for PDF/UA: painting outside any marked content
// (Chromium's headerTemplate and footerTemplate, drawn untagged) is wrapped in /Artifact BMC ...
// EMC, and chosen tagged sequences (images without alt text) become artifacts. A run is closed
// before the next marked-content operator so artifacts and tagged content never nest (01-003,
// 01-004), and never split a text object: a run that would end inside one is left untagged.

import { contentOps, PAINTING, type ContentOp } from '../content-ops.ts';
import { markOf } from './marked-content.ts';

interface Edit {
  at: number;
  /** Bytes replaced from `at` (0: an insertion). */
  length: number;
  text: string;
}

/** The stream with untagged painting wrapped as artifacts and the sequences of `artifactMcids` retagged; undefined when nothing changed. */
export function markArtifacts(content: Uint8Array, artifactMcids: ReadonlySet<number> = new Set()): Uint8Array | undefined {
  const ops = contentOps(content);
  const edits = [...retag(content, ops, artifactMcids), ...wrapUntagged(content, ops)];
  if (edits.length === 0) return undefined;
  // At one offset the insertion (a run's EMC) goes before the replacement (a retagged BDC).
  edits.sort((a, b) => a.at - b.at || a.length - b.length);
  const parts: Buffer[] = [];
  let from = 0;
  for (const edit of edits) {
    parts.push(Buffer.from(content.subarray(from, edit.at)), Buffer.from(edit.text, 'latin1'));
    from = edit.at + edit.length;
  }
  parts.push(Buffer.from(content.subarray(from)));
  return new Uint8Array(Buffer.concat(parts));
}

function retag(content: Uint8Array, ops: ContentOp[], mcids: ReadonlySet<number>): Edit[] {
  if (mcids.size === 0) return [];
  return ops
    .filter((op) => op.op === 'BDC' && mcids.has(markOf(content, op).mcid ?? -1))
    .map((op) => ({ at: op.start, length: op.end - op.start, text: '/Artifact BMC' }));
}

const PATH_PAINTING = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*']);

function wrapUntagged(content: Uint8Array, ops: ContentOp[]): Edit[] {
  const edits: Edit[] = [];
  let depth = 0;
  let textStart = -1;
  let pathStart = -1;
  let runStart = -1;
  const close = (at: number) => {
    // A run that began at this text object would end inside it: left as it is.
    if (textStart >= 0 && runStart >= textStart) {
      runStart = -1;
      return;
    }
    const end = textStart >= 0 ? textStart : at;
    edits.push({ at: runStart, length: 0, text: '/Artifact BMC\n' }, { at: end, length: 0, text: '\nEMC\n' });
    runStart = -1;
  };
  for (const op of ops) {
    if (op.op === 'BMC' || op.op === 'BDC' || op.op === 'EMC') {
      if (depth === 0 && runStart >= 0) close(op.start);
      // A retagged sequence still opens marked content (as an artifact): depth counts it the same.
      depth = op.op === 'EMC' ? Math.max(0, depth - 1) : depth + 1;
    } else if (op.op === 'BT') textStart = op.start;
    else if (op.op === 'ET') textStart = -1;
    else if (op.op === 'm' || op.op === 're') {
      if (pathStart < 0) pathStart = op.start;
    } else if (op.op === 'n') pathStart = -1;
    else if (PAINTING.has(op.op)) {
      if (depth === 0 && runStart < 0) runStart = textStart >= 0 ? textStart : PATH_PAINTING.has(op.op) && pathStart >= 0 ? pathStart : op.start;
      if (PATH_PAINTING.has(op.op)) pathStart = -1;
    }
  }
  if (runStart >= 0) close(content.length);
  return edits;
}
