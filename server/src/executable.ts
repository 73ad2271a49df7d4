// Whether a path is a file this process may execute: the one check behind the Chromium lookup
// (render/chromium-path.ts), the LibreOffice lookup (office/office-install.ts) and the tests'
// engine list. It neither runs the file nor looks at what it is.

import { accessSync, constants, statSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';

/** Whether `file` is a regular file (links followed) that this process may execute. */
export async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** isExecutable, synchronously: for the lookups that run before anything else at start-up. */
export function isExecutableSync(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
