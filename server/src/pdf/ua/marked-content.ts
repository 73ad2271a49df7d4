// The marked-content scan of one content stream (Matterhorn 01-003, 01-004, 01-005): which
// painting operators stand outside both tagged content (a sequence with an MCID) and artifacts,
// and where artifacts and tagged sequences nest inside each other. Approximation: a form
// XObject's own content is not entered; its Do counts as one painting operator where it stands.

import { contentOps, operandsOf, PAINTING, type ContentOp } from '../content-ops.ts';

export type MarkKind = 'artifact' | 'tagged' | 'other';

export interface MarkedContentScan {
  /** Painting operators neither tagged nor in an artifact. */
  untagged: number;
  artifactInTagged: number;
  taggedInArtifact: number;
  /** MCIDs of the tagged sequences, with their BDC operator. */
  sequences: { mcid: number; tag: string; op: ContentOp }[];
}

/** The kind of sequence a BMC or BDC opens, its tag and MCID. */
export function markOf(content: Uint8Array, op: ContentOp): { kind: MarkKind; tag: string; mcid?: number } {
  const operands = operandsOf(content, op);
  const tag = /^\s*\/([^\s/<[(]+)/.exec(operands)?.[1] ?? '';
  if (tag === 'Artifact') return { kind: 'artifact', tag };
  const mcid = op.op === 'BDC' ? /\/MCID\s+(\d+)/.exec(operands)?.[1] : undefined;
  return mcid === undefined ? { kind: 'other', tag } : { kind: 'tagged', tag, mcid: Number(mcid) };
}

export function scanMarkedContent(content: Uint8Array, ops: ContentOp[] = contentOps(content)): MarkedContentScan {
  const scan: MarkedContentScan = { untagged: 0, artifactInTagged: 0, taggedInArtifact: 0, sequences: [] };
  const stack: MarkKind[] = [];
  let artifacts = 0;
  let tagged = 0;
  for (const op of ops) {
    if (op.op === 'BMC' || op.op === 'BDC') {
      const mark = markOf(content, op);
      if (mark.kind === 'artifact' && tagged > 0) scan.artifactInTagged++;
      if (mark.kind === 'tagged' && artifacts > 0) scan.taggedInArtifact++;
      if (mark.kind === 'tagged') scan.sequences.push({ mcid: mark.mcid!, tag: mark.tag, op });
      stack.push(mark.kind);
      if (mark.kind === 'artifact') artifacts++;
      if (mark.kind === 'tagged') tagged++;
    } else if (op.op === 'EMC') {
      const kind = stack.pop();
      if (kind === 'artifact') artifacts--;
      if (kind === 'tagged') tagged--;
    } else if (PAINTING.has(op.op) && artifacts === 0 && tagged === 0) scan.untagged++;
  }
  return scan;
}
