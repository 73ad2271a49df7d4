// Runs PDF post-processing (finish.ts, merge.ts) on worker threads, started on first use: parsing
// and re-writing a PDF takes tens to hundreds of milliseconds (AES-256 key derivation alone is
// ~40 ms), which must not stall the server's event loop. Two threads, as many as renders run at
// once by default; a task goes to the one with less queued. A worker that dies fails its tasks and
// is replaced on the next one; one that cannot start at all (a packaging fault) leaves the work
// to the main thread, slower but right.

import { Worker } from 'node:worker_threads';
import { RenderInputError } from '../render/errors.ts';
import { needsFinishing, type FinishOptions } from './finish-options.ts';
import { MergeSourceError } from './merge-errors.ts';
import type { MergePart, PdfTask, PdfTaskReply, PdfTaskResult } from './pdf-task.ts';
import type { MarkerPages, StampPlan } from './stamp.ts';

/** The printed PDF with metadata, watermark and encryption applied; the bytes as they are when none is asked. */
export async function finishPdf(pdf: Uint8Array, options: FinishOptions): Promise<Uint8Array> {
  if (!needsFinishing(options)) return pdf;
  const { metadata, watermark, encrypt } = options;
  return runTask({ kind: 'finish', pdf, options: { metadata, watermark, encrypt } }) as Promise<Uint8Array>;
}

/** The body with its printed headers and footers drawn on (stamp.ts), then finished with the options. */
export function stampInWorker(pdf: Uint8Array, overlay: Uint8Array, plan: StampPlan, options: FinishOptions): Promise<Uint8Array> {
  const { metadata, watermark, encrypt } = options;
  return runTask({ kind: 'stamp', pdf, overlay, plan, options: { metadata, watermark, encrypt } }) as Promise<Uint8Array>;
}

/** The page count of a printed body and the page each of its section markers landed on (stamp.ts). */
export function findMarkersInWorker(pdf: Uint8Array, prefix: string): Promise<MarkerPages> {
  return runTask({ kind: 'markers', pdf, prefix }) as Promise<MarkerPages>;
}

/** The parts' pages in order as one PDF, finished with the options; throws MergeSourceError naming a bad part. */
export function mergeInWorker(sources: MergePart[], options: FinishOptions & { outline?: boolean }): Promise<Uint8Array> {
  return runTask({ kind: 'merge', sources, options }) as Promise<Uint8Array>;
}

const THREADS = 2;
const threads: (PdfThread | undefined)[] = Array.from({ length: THREADS });
let threadsUnavailable = false;

function runTask(task: PdfTask): Promise<PdfTaskResult> {
  if (threadsUnavailable) return runInline(task);
  let index = 0;
  for (let i = 1; i < THREADS; i++) if ((threads[i]?.queued ?? 0) < (threads[index]?.queued ?? 0)) index = i;
  let thread = threads[index];
  if (!thread) {
    thread = new PdfThread(
      () => {
        threads[index] = undefined;
      },
      () => {
        threadsUnavailable = true;
      },
    );
    threads[index] = thread;
  }
  return thread.run(task);
}

/** One worker thread and the tasks it has been given. */
class PdfThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (pdf: PdfTaskResult) => void; reject: (error: Error) => void; task: PdfTask }>();
  private nextId = 1;
  private answered = false;

  constructor(onGone: () => void, onCannotStart: () => void) {
    // From source (tsx) the worker is the .ts file beside this one, and registers tsx first (a
    // worker does not inherit the loader); in the desktop bundle it is dist/electron/pdf-worker.mjs,
    // built by scripts/build-electron.ts.
    // (The loader's name is not written as an import literal: the desktop bundle must not appear
    // to load tsx, scripts/desktop-packages.ts.)
    const fromSource = import.meta.url.endsWith('.ts');
    const loader = JSON.stringify('tsx/esm/api');
    const entry = JSON.stringify(new URL('./pdf-worker.ts', import.meta.url).href);
    this.worker = fromSource
      ? new Worker(`import(${loader}).then(({ register }) => { register(); return import(${entry}); })`, { eval: true })
      : new Worker(new URL('./pdf-worker.mjs', import.meta.url));
    this.worker.on('message', (reply: PdfTaskReply) => this.settle(reply));
    const fail = (error: Error) => {
      onGone();
      if (!this.answered) onCannotStart();
      for (const waiting of this.pending.values()) {
        if (!this.answered) runInline(waiting.task).then(waiting.resolve, waiting.reject);
        else waiting.reject(error);
      }
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the PDF worker stopped (exit code ${code})`)));
  }

  get queued(): number {
    return this.pending.size;
  }

  run(task: PdfTask): Promise<PdfTaskResult> {
    const id = this.nextId++;
    return new Promise<PdfTaskResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, task });
      this.worker.ref();
      this.worker.postMessage({ id, task });
    });
  }

  private settle(reply: PdfTaskReply): void {
    this.answered = true;
    const waiting = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    // An idle worker must not keep the process alive.
    if (this.pending.size === 0) this.worker.unref();
    if (!waiting) return;
    if ('pdf' in reply) waiting.resolve(reply.pdf);
    else waiting.reject(errorFrom(reply.error));
  }
}

async function runInline(task: PdfTask): Promise<PdfTaskResult> {
  const { runPdfTask } = await import('./run-pdf-task.ts');
  try {
    return await runPdfTask(task);
  } catch (error) {
    throw errorFrom(error as { name: string; message: string });
  }
}

function errorFrom(error: { name: string; message: string; field?: string; index?: number }): Error {
  if (error.name === 'FinishInputError') return new RenderInputError(error.field ?? 'options', error.message);
  if (error.name === 'MergeSourceError') return new MergeSourceError(error.index ?? 0, error.message);
  return new Error(error.message);
}
