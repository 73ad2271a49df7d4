// The PDF worker thread's entry: runs finish.ts, merge.ts, inspect.ts and rasterize.ts off the server's event loop, one task
// at a time, answering each message with the bytes (transferred, not copied) or the error's shape.

import { serveTasks } from '../worker-pool.ts';
import type { PdfTask, PdfTaskResult } from './pdf-task.ts';
import { runPdfTask } from './run-pdf-task.ts';

serveTasks<PdfTask, PdfTaskResult>(runPdfTask, (result) =>
  result instanceof Uint8Array ? [result.buffer as ArrayBuffer] : Array.isArray(result) ? result.map((image) => image.bytes.buffer as ArrayBuffer) : [],
);
