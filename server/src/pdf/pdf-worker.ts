// The PDF worker thread's entry: runs finish.ts and merge.ts off the server's event loop, one task
// at a time, answering each message with the bytes (transferred, not copied) or the error's shape.

import { serveTasks } from '../worker-pool.ts';
import type { PdfTask, PdfTaskResult } from './pdf-task.ts';
import { runPdfTask } from './run-pdf-task.ts';

serveTasks<PdfTask, PdfTaskResult>(runPdfTask, (result) => {
  if (result instanceof Uint8Array) return [result.buffer as ArrayBuffer];
  // A PDF/A file travels with its report: its bytes are moved too.
  return 'pdf' in result && result.pdf instanceof Uint8Array ? [result.pdf.buffer as ArrayBuffer] : [];
});
