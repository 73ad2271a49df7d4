// The PDF worker thread's entry: runs finish.ts and merge.ts off the server's event loop, one task
// at a time, answering each message with the bytes (transferred, not copied) or the error's shape.

import { parentPort } from 'node:worker_threads';
import type { PdfTask, PdfTaskReply } from './pdf-task.ts';
import { runPdfTask } from './run-pdf-task.ts';

parentPort!.on('message', async ({ id, task }: { id: number; task: PdfTask }) => {
  let reply: PdfTaskReply;
  try {
    const pdf = await runPdfTask(task);
    reply = { id, pdf };
    parentPort!.postMessage(reply, pdf instanceof Uint8Array ? [pdf.buffer as ArrayBuffer] : []);
  } catch (error) {
    const { name, message, field, index } = error as { name?: string; message?: string; field?: string; index?: number };
    reply = { id, error: { name: name ?? 'Error', message: message ?? String(error), field, index } };
    parentPort!.postMessage(reply);
  }
});
