// What the signing worker does with each message (and the server itself when no thread starts).

import { preparePlaceholder } from './placeholder.ts';
import type { SignTask, SignTaskResult } from './sign-task.ts';
import { verifySignatures } from './verify.ts';

export function runSignTask(task: SignTask): Promise<SignTaskResult> {
  switch (task.kind) {
    case 'prepare':
      return preparePlaceholder(task.pdf, task.options);
    case 'verify':
      return verifySignatures(task.pdf, task.context);
  }
}
