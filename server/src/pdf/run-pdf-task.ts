// Runs one PDF task (finish or merge): what the worker thread does with each message, and what
// the server does itself when no worker can be started.

import { finish } from './finish.ts';
import { mergePdfs } from './merge.ts';
import type { PdfTask } from './pdf-task.ts';

export function runPdfTask(task: PdfTask): Promise<Uint8Array> {
  return task.kind === 'finish' ? finish(task.pdf, task.options) : mergePdfs(task.sources, task.options);
}
