// The PDF worker thread's entry: runs finish.ts and merge.ts off the server's event loop, one task
// at a time, answering each message with the bytes (transferred, not copied) or the error's shape.

import { parentPort } from 'node:worker_threads';
import { finish } from './finish.ts';
import { mergePdfs } from './merge.ts';
import type { PdfTask, PdfTaskReply } from './pdf-task.ts';

async function run(task: PdfTask): Promise<Uint8Array> {
  return task.kind === 'finish' ? finish(task.pdf, task.options) : mergePdfs(task.sources, task.options);
}

parentPort!.on('message', async ({ id, task }: { id: number; task: PdfTask }) => {
  let reply: PdfTaskReply;
  try {
    const pdf = await run(task);
    reply = { id, pdf };
    parentPort!.postMessage(reply, [pdf.buffer as ArrayBuffer]);
  } catch (error) {
    const { name, message, field, index } = error as { name?: string; message?: string; field?: string; index?: number };
    reply = { id, error: { name: name ?? 'Error', message: message ?? String(error), field, index } };
    parentPort!.postMessage(reply);
  }
});
