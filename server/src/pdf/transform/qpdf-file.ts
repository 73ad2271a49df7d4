// Runs qpdf (or Ghostscript) over PDF bytes held in memory: writes them to a private temporary
// folder, runs the bounded tool (pdf-tool.ts), reads back what it wrote, removes the folder. A
// failure names the step that asked for it.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PdfInputError } from '../pdf-errors.ts';
import { runTool, toolComplaint, type ToolRun } from '../pdf-tool.ts';

/** Runs `work` with a temporary folder of its own, removed afterwards whatever happens. */
export async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'quire-pdf-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Throws the step's error for a run that failed or hit a limit (qpdf's 3 means warnings: fine). */
export function checkRun(run: ToolRun, tool: string, field: string, paths: string[]): void {
  if (run.overLimit) throw new PdfInputError('too_large', field, `${field}: the result grew past the limits of PDF work (${tool})`);
  if (run.code !== 0 && !(tool === 'qpdf' && run.code === 3))
    throw new PdfInputError('unreadable', field, `${field} could not be carried out: ${toolComplaint(run.stderr, paths)}`);
}

/** The bytes `tool` writes to `out.pdf` given `in.pdf`; `args` builds its arguments from the two paths. */
export function toolOnBytes(tool: 'qpdf' | 'gs', pdf: Uint8Array, field: string, args: (input: string, output: string) => string[]): Promise<Uint8Array> {
  return inTempDir(async (dir) => {
    const input = path.join(dir, 'in.pdf');
    const output = path.join(dir, 'out.pdf');
    await writeFile(input, pdf);
    checkRun(await runTool(tool, args(input, output)), tool, field, [input, output]);
    return new Uint8Array(await readFile(output));
  });
}

/** qpdf over the bytes: `qpdf in.pdf <options> out.pdf`. */
export function qpdf(pdf: Uint8Array, field: string, options: string[]): Promise<Uint8Array> {
  return toolOnBytes('qpdf', pdf, field, (input, output) => [input, ...options, output]);
}

/** A list of 1-based page numbers as qpdf reads it, runs folded ("1-4,7,7,9-12"). */
export function qpdfPageList(pages: number[]): string {
  const out: string[] = [];
  let start = 0;
  while (start < pages.length) {
    let end = start;
    while (end + 1 < pages.length && pages[end + 1] === pages[end]! + 1) end++;
    out.push(end > start ? `${pages[start]}-${pages[end]}` : String(pages[start]));
    start = end + 1;
  }
  return out.join(',');
}
