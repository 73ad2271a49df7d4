// The signing worker thread's entry: the placeholder update (pdf-lib parses the whole file) and
// verification run here, off the server's event loop.

import { serveTasks } from '../worker-pool.ts';
import { runSignTask } from './run-sign-task.ts';
import type { SignTask, SignTaskResult } from './sign-task.ts';

serveTasks<SignTask, SignTaskResult>(runSignTask, (result) => (!Array.isArray(result) ? [result.pdf.buffer as ArrayBuffer] : []));
