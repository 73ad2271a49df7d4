// The steps of the PDF tools screen as the form holds them (text where a person types, one id per
// step for the list), turned into the server's steps (docs/api.md#transforming-a-pdf-post-v1pdftransform)
// and back (a preset's steps loaded into the list).

import type { TransformStep } from '../api/pdf-transform.ts';

export type StepOp = TransformStep['op'];
export type SplitMode = 'every' | 'ranges' | 'bookmarks';

export type StepDraft = { id: number } & (
  | { op: 'select' | 'delete'; pages: string }
  | { op: 'reorder'; order: string }
  | { op: 'duplicate'; pages: string; copies: number }
  | { op: 'insert_blank'; after: number; count: number }
  | { op: 'rotate'; angle: number; pages: string }
  | { op: 'split'; mode: SplitMode; every: number; ranges: string }
  | { op: 'flatten' }
  | { op: 'compress'; mode: 'images' | 'lossless'; dpi: number; quality: number }
  | { op: 'fill_form'; fields: string; flatten: boolean }
);

/** The operations in the order the add menu offers them, with what a person calls them. */
export const OPERATIONS: { op: StepOp; label: string }[] = [
  { op: 'select', label: 'Keep pages' },
  { op: 'delete', label: 'Delete pages' },
  { op: 'reorder', label: 'Reorder pages' },
  { op: 'duplicate', label: 'Duplicate pages' },
  { op: 'insert_blank', label: 'Insert blank pages' },
  { op: 'rotate', label: 'Rotate' },
  { op: 'split', label: 'Split' },
  { op: 'flatten', label: 'Flatten' },
  { op: 'compress', label: 'Compress' },
  { op: 'fill_form', label: 'Fill form' },
];

export function operationLabel(op: string): string {
  return OPERATIONS.find((operation) => operation.op === op)?.label ?? op;
}

let lastId = 0;

/** A new step of this kind with the server's defaults filled in. */
export function newStep(op: StepOp): StepDraft {
  const id = ++lastId;
  switch (op) {
    case 'select':
    case 'delete':
      return { id, op, pages: '' };
    case 'reorder':
      return { id, op, order: '' };
    case 'duplicate':
      return { id, op, pages: '', copies: 1 };
    case 'insert_blank':
      return { id, op, after: 0, count: 1 };
    case 'rotate':
      return { id, op, angle: 90, pages: '' };
    case 'split':
      return { id, op, mode: 'every', every: 1, ranges: '' };
    case 'flatten':
      return { id, op };
    case 'compress':
      return { id, op, mode: 'images', dpi: 150, quality: 75 };
    case 'fill_form':
      return { id, op, fields: '{\n  \n}', flatten: false };
  }
}

/** The server's step; a fill_form whose fields are not a JSON object throws, naming the step. */
export function toWire(draft: StepDraft, at: number): TransformStep {
  switch (draft.op) {
    case 'select':
    case 'delete':
      return { op: draft.op, pages: draft.pages };
    case 'reorder':
      return { op: draft.op, order: draft.order };
    case 'duplicate':
      return { op: draft.op, pages: draft.pages, copies: draft.copies };
    case 'insert_blank':
      return { op: draft.op, after: draft.after, count: draft.count };
    case 'rotate':
      return draft.pages.trim() ? { op: draft.op, angle: draft.angle, pages: draft.pages } : { op: draft.op, angle: draft.angle };
    case 'split':
      if (draft.mode === 'every') return { op: 'split', every: draft.every };
      if (draft.mode === 'bookmarks') return { op: 'split', by: 'bookmarks' };
      return { op: 'split', ranges: splitRanges(draft.ranges) };
    case 'flatten':
      return { op: 'flatten' };
    case 'compress':
      return draft.mode === 'lossless' ? { op: 'compress', mode: 'lossless' } : { op: 'compress', mode: 'images', dpi: draft.dpi, quality: draft.quality };
    case 'fill_form':
      return { op: 'fill_form', fields: fieldsOf(draft.fields, at), flatten: draft.flatten };
  }
}

/** A preset's step back in the form (fields the preset left out take the server's defaults). */
export function fromWire(step: TransformStep): StepDraft {
  const draft = newStep(step.op);
  if (step.op === 'split') {
    const mode: SplitMode = step.every !== undefined ? 'every' : step.by ? 'bookmarks' : 'ranges';
    return { ...draft, op: 'split', mode, every: step.every ?? 1, ranges: (step.ranges ?? []).join('; ') };
  }
  if (step.op === 'fill_form') return { ...draft, op: 'fill_form', fields: JSON.stringify(step.fields, null, 2), flatten: step.flatten ?? false };
  return { ...draft, ...step } as StepDraft;
}

/** Parts of a split by ranges, one per `;` or line: "1-3; 4-" (a part may itself list pages with commas). */
function splitRanges(text: string): string[] {
  return text
    .split(/[;\n]/)
    .map((part) => part.trim())
    .filter(Boolean);
}

function fieldsOf(text: string, at: number): Record<string, unknown> {
  let fields: unknown;
  try {
    fields = JSON.parse(text);
  } catch (failure) {
    throw new Error(`Step ${at + 1} (Fill form): the fields are not JSON: ${(failure as Error).message}`);
  }
  if (!fields || typeof fields !== 'object' || Array.isArray(fields))
    throw new Error(`Step ${at + 1} (Fill form): the fields are a JSON object of field names and values, e.g. {"name": "Ada"}.`);
  return fields as Record<string, unknown>;
}
