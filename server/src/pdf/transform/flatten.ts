// The flatten step: qpdf draws every form field and annotation into its page (appearances made
// first for fields that have none) and removes them, so what is seen is what prints; then
// scrub-actions.ts (on the PDF worker) removes JavaScript, launch and other actions that remain.

import { qpdf } from './qpdf-file.ts';

/** Fields and annotations as page content; actions are removed by the caller's scrub pass. */
export function flattenAnnotations(pdf: Uint8Array, field: string): Promise<Uint8Array> {
  return qpdf(pdf, field, ['--generate-appearances', '--flatten-annotations=all']);
}
