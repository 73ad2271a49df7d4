// DATA_DIR/admin-token: the generated admin token when ADMIN_TOKEN is not set. Created once,
// mode 0600, atomically (a crash cannot leave half a token); read back on every later start.

import { chmod, link, open, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';

export class AdminTokenFileError extends Error {}

/** Reads DATA_DIR/admin-token, or creates it with a token from generate(); `created` says which. */
export async function loadOrCreateAdminToken(dataDir: string, generate: () => string): Promise<{ token: string; file: string; created: boolean }> {
  const file = path.join(dataDir, 'admin-token');
  const existing = await readToken(file);
  if (existing !== undefined) return { token: existing, file, created: false };
  const token = generate();
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(`${token}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    // link() fails if another process created the file meanwhile: then its token wins.
    await link(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = await readToken(file);
    if (winner === undefined) throw error;
    return { token: winner, file, created: false };
  } finally {
    await rm(temp, { force: true });
  }
  return { token, file, created: true };
}

async function readToken(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const token = text.trim();
  if (token.length < 16) throw new AdminTokenFileError(`${file} does not hold an admin token; delete it to have a new one generated`);
  // The token is a secret: keep the file private even if someone loosened it.
  if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  return token;
}
