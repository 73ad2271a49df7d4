// One worker thread for signing's PDF work (started on first use): the placeholder update and
// verify parse whole files, which must not stall the event loop. The CMS, the key and the TSA call
// stay on the main thread: they are small, and the key is never posted to another thread.

import { WorkerPool, type ErrorShape } from '../worker-pool.ts';
import { SignInputError } from './errors.ts';
import type { PlaceholderOptions, Prepared } from './placeholder.ts';
import type { SignTask, SignTaskResult } from './sign-task.ts';
import type { SignatureReport, VerifyContext } from './verify.ts';

const pool = new WorkerPool<SignTask, SignTaskResult>({
  threads: 1,
  source: new URL('./sign-worker.ts', import.meta.url),
  bundled: new URL('./sign-worker.mjs', import.meta.url),
  runInline: async (task) => (await import('./run-sign-task.ts')).runSignTask(task),
  errorFrom: (error: ErrorShape) => (error.name === 'SignInputError' ? new SignInputError(error.message, error.field) : new Error(error.message)),
});

export const prepareInWorker = (pdf: Uint8Array, options: PlaceholderOptions): Promise<Prepared> =>
  pool.run({ kind: 'prepare', pdf, options }) as Promise<Prepared>;

export const verifyInWorker = (pdf: Uint8Array, context: VerifyContext): Promise<SignatureReport[]> =>
  pool.run({ kind: 'verify', pdf, context }) as Promise<SignatureReport[]>;
