// What one transform step did (docs/api.md#transform-a-pdf): the X-Pdf-Steps header's entries,
// snake_case, shared by the server (pdf/transform/pipeline.ts records them) and the admin UI
// (ui/src/api/pdf-transform.ts reads them), so the two cannot drift. Types only.

export interface StepReport {
  /** The step's op, as the request named it (select, rotate, split, compress...). */
  op: string;
  ms: number;
  bytes_before: number;
  bytes_after: number;
  /** Pages after the step (all parts together). */
  pages: number;
  /** Parts after the step, once split. */
  parts?: number;
}
