// Runs a transform's steps in the order given (docs/api.md#transform-a-pdf) over one document,
// or over every part once a split step has cut it, and records each step's time and the bytes
// before and after. The tools run as bounded child processes (qpdf, Ghostscript) or on the PDF
// worker threads (pdf-lib), never on the event loop.

import { transformInWorker } from '../finisher.ts';
import { compressPdf } from './compress.ts';
import { flattenAnnotations } from './flatten.ts';
import { keepPages, namedPages, pagesAfter, rotatePages } from './page-order.ts';
import { splitPdf, type PdfPart } from './split.ts';
import type { TransformStep } from './steps.ts';
import { timed } from '../../telemetry/spans.ts';
import type { StepReport } from '../../shapes/transform-json.ts';

export interface TransformOutcome {
  parts: PdfPart[];
  /** Set when a split step cut the document: how the parts are answered. */
  split?: 'zip' | 'documents';
  steps: StepReport[];
}

/** The steps applied in order to `start`; a step the document cannot take throws PdfStepError naming steps[i]. */
export async function runSteps(start: PdfPart, steps: TransformStep[]): Promise<TransformOutcome> {
  let parts = [start];
  let split: TransformOutcome['split'];
  const reports: StepReport[] = [];
  for (const [index, step] of steps.entries()) {
    const field = `steps[${index}]`;
    const before = total(parts, 'bytes');
    // One reading of the step's time: the report's ms, its span (toolbox.<op>) and the stage metric.
    const { ms } = await timed(`toolbox.${step.op}`, { 'quire.step_index': index }, async () => {
      if (step.op === 'split') {
        parts = await splitPdf(parts[0]!.pdf, parts[0]!.pageCount, step, baseName(parts[0]!.name), field);
        split = step.output;
      } else {
        const next: PdfPart[] = [];
        for (const part of parts) next.push(await applyStep(part, step, field));
        parts = next;
      }
    });
    reports.push({
      op: step.op,
      ms: Math.round(ms),
      bytes_before: before,
      bytes_after: total(parts, 'bytes'),
      pages: total(parts, 'pages'),
      parts: split ? parts.length : undefined,
    });
  }
  return { parts, split, steps: reports };
}

async function applyStep(part: PdfPart, step: Exclude<TransformStep, { op: 'split' }>, field: string): Promise<PdfPart> {
  const { pdf, pageCount } = part;
  switch (step.op) {
    case 'select':
    case 'delete':
    case 'reorder':
    case 'duplicate': {
      const pages = pagesAfter(step, pageCount, field);
      return { ...part, pdf: await keepPages(pdf, pages, field), pageCount: pages.length };
    }
    case 'rotate': {
      const pages = step.pages === undefined ? undefined : namedPages(step.pages, pageCount, `${field}.pages`);
      return { ...part, pdf: await rotatePages(pdf, step.angle, pages, field) };
    }
    case 'insert_blank': {
      const blank = { after: step.after, count: step.count, size: step.size };
      return { ...part, pdf: await transformInWorker({ kind: 'insert_blank', pdf, blank, field }), pageCount: pageCount + step.count };
    }
    case 'flatten':
      return { ...part, pdf: await flatten(pdf, field) };
    case 'compress':
      return { ...part, pdf: await compressPdf(pdf, step, field) };
    case 'fill_form': {
      const filled = await transformInWorker({ kind: 'fill_form', pdf, fields: step.fields, field });
      return { ...part, pdf: step.flatten ? await flatten(filled, field) : filled };
    }
  }
}

/** Fields and annotations into the page, then every active action removed. */
async function flatten(pdf: Uint8Array, field: string): Promise<Uint8Array> {
  return transformInWorker({ kind: 'scrub', pdf: await flattenAnnotations(pdf, field) });
}

function total(parts: PdfPart[], what: 'bytes' | 'pages'): number {
  return parts.reduce((sum, part) => sum + (what === 'bytes' ? part.pdf.byteLength : part.pageCount), 0);
}

/** A file name without its .pdf, the stem of the parts' names. */
function baseName(name: string): string {
  return name.replace(/\.pdf$/i, '') || 'document';
}
