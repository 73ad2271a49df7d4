// The split step: cuts a document into named parts, every N pages (one qpdf --split-pages pass,
// so 300 parts cost one process), by page ranges, or by top-level bookmarks (read with qpdf's
// JSON: each starts a part that runs to the page before the next).

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PdfStepError } from '../pdf-errors.ts';
import { runTool } from '../pdf-tool.ts';
import { namedPages } from './page-order.ts';
import { checkRun, inTempDir, qpdf, qpdfPageList } from './qpdf-file.ts';
import type { SplitStep } from './steps.ts';

export interface PdfPart {
  pdf: Uint8Array;
  pageCount: number;
  /** The part's file name (in the zip, or of its stored document). */
  name: string;
}

interface PlannedPart {
  pages: number[];
  name: string;
}

/** The parts of the document, in order. `base` is the input's name without .pdf. */
export async function splitPdf(pdf: Uint8Array, count: number, step: SplitStep, base: string, field: string): Promise<PdfPart[]> {
  const plan =
    step.every !== undefined
      ? everyPlan(count, step.every, base)
      : step.ranges
        ? rangePlan(step.ranges, count, base, field)
        : await bookmarkPlan(pdf, count, field);
  if (step.names) {
    if (step.names.length !== plan.length)
      throw new PdfStepError(`${field}.names`, `${field}.names has ${step.names.length} names, but the split makes ${plan.length} parts`);
    for (const [index, part] of plan.entries()) part.name = withPdf(step.names[index]!);
  }
  const unique = new Set(plan.map((part) => part.name));
  if (unique.size !== plan.length) throw new PdfStepError(`${field}.names`, `${field} would make two parts of the same name; give names`);
  if (step.every !== undefined) return splitEvery(pdf, step.every, plan, field);
  const parts: PdfPart[] = [];
  for (const part of plan)
    parts.push({ pdf: await qpdf(pdf, field, ['--pages', '.', qpdfPageList(part.pages), '--']), pageCount: part.pages.length, name: part.name });
  return parts;
}

function everyPlan(count: number, every: number, base: string): PlannedPart[] {
  const plan: PlannedPart[] = [];
  for (let first = 1; first <= count; first += every) {
    const last = Math.min(count, first + every - 1);
    plan.push({ pages: range(first, last), name: `${base}-${first === last ? first : `${first}-${last}`}.pdf` });
  }
  return plan;
}

function rangePlan(ranges: string[], count: number, base: string, field: string): PlannedPart[] {
  return ranges.map((list, index) => {
    const pages = namedPages(list, count, `${field}.ranges[${index}]`);
    if (pages.length === 0) throw new PdfStepError(`${field}.ranges[${index}]`, `${field}.ranges[${index}] names no page`);
    return { pages, name: `${base}-${list.replace(/\s+/g, '').replace(/,/g, '_')}.pdf` };
  });
}

/** One part per top-level bookmark; pages before the first form a part of their own, "start". */
async function bookmarkPlan(pdf: Uint8Array, count: number, field: string): Promise<PlannedPart[]> {
  const outlines = await readOutlines(pdf, field);
  const starts = new Map<number, string>();
  for (const entry of outlines) {
    const page = entry.destpageposfrom1;
    if (typeof page === 'number' && page >= 1 && page <= count && !starts.has(page)) starts.set(page, entry.title ?? `Part ${starts.size + 1}`);
  }
  if (starts.size === 0) throw new PdfStepError(field, `${field} splits by bookmarks, but the document has no top-level bookmarks that open a page`);
  if (!starts.has(1)) starts.set(1, 'start');
  const firsts = [...starts.keys()].sort((a, b) => a - b);
  return firsts.map((first, index) => {
    const last = (firsts[index + 1] ?? count + 1) - 1;
    return { pages: range(first, last), name: `${String(index + 1).padStart(String(firsts.length).length, '0')}-${slug(starts.get(first)!)}.pdf` };
  });
}

interface OutlineJson {
  outlines?: { title?: string; destpageposfrom1?: number | null }[];
}

function readOutlines(pdf: Uint8Array, field: string): Promise<NonNullable<OutlineJson['outlines']>> {
  return inTempDir(async (dir) => {
    const file = path.join(dir, 'in.pdf');
    await writeFile(file, pdf);
    const run = await runTool('qpdf', ['--json=2', '--json-key=outlines', file]);
    checkRun(run, 'qpdf', field, [file]);
    return (JSON.parse(run.stdout.toString('utf8')) as OutlineJson).outlines ?? [];
  });
}

/** Every-N parts in one qpdf pass; qpdf names its files by page range with equal padding, so they sort in page order. */
function splitEvery(pdf: Uint8Array, every: number, plan: PlannedPart[], field: string): Promise<PdfPart[]> {
  return inTempDir(async (dir) => {
    const input = path.join(dir, 'in.pdf');
    await writeFile(input, pdf);
    const out = path.join(dir, 'parts');
    await mkdir(out);
    checkRun(await runTool('qpdf', [`--split-pages=${every}`, input, path.join(out, 'part.pdf')]), 'qpdf', field, [input, out]);
    const files = (await readdir(out)).sort();
    if (files.length !== plan.length) throw new PdfStepError(field, `${field} made ${files.length} parts where ${plan.length} were expected`);
    const parts: PdfPart[] = [];
    for (const [index, file] of files.entries())
      parts.push({ pdf: new Uint8Array(await readFile(path.join(out, file))), pageCount: plan[index]!.pages.length, name: plan[index]!.name });
    return parts;
  });
}

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}

/** A bookmark title as a file name: letters, digits, dashes; at most 80 characters. */
function slug(title: string): string {
  const text = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return text || 'part';
}

function withPdf(name: string): string {
  return /\.pdf$/i.test(name) ? name : `${name}.pdf`;
}
