// Runs one PDF task (finish, merge, stamp, markers, destinations, layout, embed, pdf_a, conformance, the transform steps pdf-lib does, inspect, attached files, rasterize): what the worker thread does with each
// message, and what the server does itself when no worker can be started.

import { attachedFiles } from './attached-files.ts';
import { checkConformance } from './conformance.ts';
import { embedFiles } from './embed-files.ts';
import { finish } from './finish.ts';
import { inspectPdf, type PdfInspection } from './inspect.ts';
import { runInspectChecks, type InspectCheck } from './inspect-checks.ts';
import { rasterizePdf } from './rasterize.ts';
import { makeArchival } from './pdf-a.ts';
import { mergePdfs } from './merge.ts';
import { readLayout } from './pdf-layout.ts';
import { pagesOfDestinations } from './named-destinations.ts';
import type { PdfTask, PdfTaskResult } from './pdf-task.ts';
import { findMarkers, stampPdf } from './stamp.ts';
import { insertBlankPages } from './transform/blank-pages.ts';
import { fillForm } from './transform/form-fill.ts';
import { scrubActions } from './transform/scrub-actions.ts';
import { zipFiles } from './transform/zip.ts';

// One case per task kind, each a different tool: alike in shape only, as in signing/run-sign-task.ts.
export function runPdfTask(task: PdfTask): Promise<PdfTaskResult> {
  switch (task.kind) {
    case 'finish':
      return finish(task.pdf, task.options);
    case 'merge':
      return mergePdfs(task.sources, task.options);
    case 'stamp':
      return stampPdf(task.pdf, task.overlay, task.plan, task.options);
    case 'markers':
      return findMarkers(task.pdf, task.prefix);
    case 'destinations':
      return pagesOfDestinations(task.pdf, task.names);
    case 'layout':
      return readLayout(task.pdf, task.field);
    case 'embed':
      return embedFiles(task.pdf, task.files, task.xmp);
    case 'inspect':
      return inspectWithChecks(task.pdf, task.field, task.original, task.checks);
    case 'attached_files':
      return attachedFiles(task.pdf, task.field);
    case 'rasterize':
      return rasterizePdf(task.request);
    case 'fill_form':
      return fillForm(task.pdf, task.fields, task.field);
    case 'insert_blank':
      return insertBlankPages(task.pdf, task.blank, task.field);
    case 'scrub':
      return scrubActions(task.pdf);
    case 'zip':
      return Promise.resolve(zipFiles(task.files));
    case 'pdf_a':
      return archive(task.pdf, task.level);
    case 'conformance':
      return checkConformance(task.pdf, task.level);
  }
}

/** The file made PDF/A and checked in the same task: one trip to the thread, one parse each. */
async function archive(pdf: Uint8Array, level: string) {
  const archival = await makeArchival(pdf, level);
  return { pdf: archival, report: await checkConformance(archival, level) };
}

/** The inspection, with the reports of the checks asked for. */
async function inspectWithChecks(pdf: Uint8Array, field: string, original: Uint8Array | undefined, asked: InspectCheck[] | undefined): Promise<PdfInspection> {
  const inspection = await inspectPdf(pdf, field, original);
  const checks = await runInspectChecks(pdf, asked);
  return checks ? { ...inspection, checks } : inspection;
}
