// Runs PDF post-processing (finish.ts, merge.ts) on one worker thread, started on first use:
// parsing and re-writing a PDF takes tens to hundreds of milliseconds, which must not stall the
// server's event loop. A worker that dies fails its tasks and is replaced on the next one; one
// that cannot start at all (a packaging fault) leaves the work to the main thread, slower but right.

import { Worker } from 'node:worker_threads';
import { RenderInputError } from '../render/errors.ts';
import { needsFinishing, type FinishOptions } from './finish-options.ts';
import { MergeSourceError } from './merge-errors.ts';
import type { MergePart, PdfTask, PdfTaskReply } from './pdf-task.ts';

/** The printed PDF with metadata, watermark and encryption applied; the bytes as they are when none is asked. */
export async function finishPdf(pdf: Uint8Array, options: FinishOptions): Promise<Uint8Array> {
  if (!needsFinishing(options)) return pdf;
  const { metadata, watermark, encrypt } = options;
  return runTask({ kind: 'finish', pdf, options: { metadata, watermark, encrypt } });
}

/** The parts' pages in order as one PDF, finished with the options; throws MergeSourceError naming a bad part. */
export function mergeInWorker(sources: MergePart[], options: FinishOptions & { outline?: boolean }): Promise<Uint8Array> {
  return runTask({ kind: 'merge', sources, options });
}

let worker: Worker | undefined;
let workerUnavailable = false;
let nextId = 1;
const pending = new Map<number, { resolve: (pdf: Uint8Array) => void; reject: (error: Error) => void; task: PdfTask }>();

function runTask(task: PdfTask): Promise<Uint8Array> {
  if (workerUnavailable) return runInline(task);
  const id = nextId++;
  return new Promise<Uint8Array>((resolve, reject) => {
    pending.set(id, { resolve, reject, task });
    const thread = startedWorker();
    thread.ref();
    thread.postMessage({ id, task });
  });
}

function startedWorker(): Worker {
  if (worker) return worker;
  // From source (tsx) the worker is the .ts file beside this one; in the desktop bundle it is
  // dist/electron/pdf-worker.mjs, built by scripts/build-electron.ts.
  // A worker does not inherit the tsx loader, so from source it registers tsx before importing.
  const fromSource = import.meta.url.endsWith('.ts');
  const thread = fromSource
    ? new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(new URL('./pdf-worker.ts', import.meta.url).href)}); })`, { eval: true })
    : new Worker(new URL('./pdf-worker.mjs', import.meta.url));
  let answered = false;
  thread.on('message', (reply: PdfTaskReply) => {
    answered = true;
    const task = pending.get(reply.id);
    pending.delete(reply.id);
    // An idle worker must not keep the process alive.
    if (pending.size === 0) thread.unref();
    if (!task) return;
    if ('pdf' in reply) task.resolve(reply.pdf);
    else task.reject(errorFrom(reply.error));
  });
  const fail = (error: Error) => {
    if (worker === thread) worker = undefined;
    if (!answered) workerUnavailable = true;
    for (const waiting of pending.values()) {
      if (workerUnavailable) runInline(waiting.task).then(waiting.resolve, waiting.reject);
      else waiting.reject(error);
    }
    pending.clear();
  };
  thread.on('error', fail);
  thread.on('exit', (code) => fail(new Error(`the PDF worker stopped (exit code ${code})`)));
  worker = thread;
  return thread;
}

async function runInline(task: PdfTask): Promise<Uint8Array> {
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
