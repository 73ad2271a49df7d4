// A header and footer asked of a PDF Quire did not lay out (render/heads-on-pdf.ts), as the
// services hold it: the office options or the merge's options that ask for it, turned into what
// the renderer draws, and the drawing of one document numbered on its own.

import type { FinishOptions } from '../../pdf/finish-options.ts';
import { readLayoutInWorker } from '../../pdf/finisher.ts';
import type { PdfHeadsOptions } from '../../render/header-options.ts';
import { headsOf } from '../../render/header-plan.ts';
import type { HeadsOnPdf } from '../../render/heads-on-pdf.ts';
import type { HeadsDrawer } from '../../render/renderer.ts';
import { ownNumbering } from '../../render/numbering.ts';

export type { HeadsDrawer, PdfHeadsOptions };
import type { RenderPriority, Tenant } from '../../render/render-slots.ts';

/** What to draw, or undefined when the options ask for neither a header nor a footer. */
export function pdfHeadsOf(options: PdfHeadsOptions, extras: { field: string; data?: unknown; title?: string }): HeadsOnPdf | undefined {
  const heads = headsOf(options);
  if (!heads) return undefined;
  return { heads, fit: options.header_footer_fit, margin: options.header_footer_margin, ...extras };
}

/** Draws the header and footer on one document numbered on its own, then finishes it. */
export async function drawPdfHeads(
  drawer: HeadsDrawer,
  pdf: Uint8Array,
  request: HeadsOnPdf,
  job: { timeoutMs: number; finish: FinishOptions; tenant?: Tenant; priority?: RenderPriority },
): Promise<Uint8Array> {
  const layout = await readLayoutInWorker(pdf, request.field);
  return drawer.decoratePdf(pdf, layout, request, { ...job, numbering: ownNumbering(layout.pages.length) });
}
