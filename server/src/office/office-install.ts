// Finds the optional LibreOffice install at start-up: the soffice executable (OFFICE_PATH, else
// soffice on PATH), a Python that has LibreOffice's uno module, and our bridge script. Only finds;
// starting processes is office-process.ts's job.

import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isExecutableSync } from '../executable.ts';

/** How to install what is missing, for the 501 office_unavailable answer and the start-up log. */
export const OFFICE_INSTALL_HINT =
  'Install LibreOffice and its Python bridge (Debian/Ubuntu: apt-get install libreoffice-writer-nogui libreoffice-calc-nogui ' +
  'libreoffice-impress-nogui python3-uno, or npm run setup) and restart the server, or point OFFICE_PATH at soffice.';

export interface OfficeInstall {
  soffice: string;
  python: string;
  bridge: string;
}

export type OfficeLookup = { found: true; install: OfficeInstall } | { found: false; reason: string };

/** The LibreOffice this server uses, or why there is none (never throws). */
export function findOffice(officePath: string, officePython: string, env: NodeJS.ProcessEnv = process.env): OfficeLookup {
  const soffice = officePath || onPath('soffice', env.PATH ?? '');
  if (!soffice) return { found: false, reason: 'soffice was not found on PATH' };
  if (!isExecutableSync(soffice)) return { found: false, reason: `OFFICE_PATH ${soffice} is not an executable file` };
  const python = officePython || pythonBeside(soffice) || '/usr/bin/python3';
  if (!hasUno(python)) return { found: false, reason: `${python} cannot import LibreOffice's uno module (Debian: python3-uno)` };
  const bridge = bridgeScript();
  if (!bridge) return { found: false, reason: 'server/python/office_bridge.py is missing from the installation' };
  return { found: true, install: { soffice, python, bridge } };
}

/**
 * The bridge script, found from the package root rather than beside this source file: the same
 * lookup works from server/src (tsx) and from a bundle in dist/server.
 */
export function bridgeScript(): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'server', 'python', 'office_bridge.py');
    // In the packaged desktop app the script is unpacked beside app.asar (Python cannot read inside it).
    if (existsSync(path.join(dir, 'package.json')) && existsSync(candidate)) return candidate.replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function onPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutableSync(candidate)) return candidate;
  }
  return undefined;
}

/** LibreOffice's own Python (Windows, macOS and the upstream Linux packages ship one in program/). */
function pythonBeside(soffice: string): string | undefined {
  let program: string;
  try {
    program = path.dirname(realpathSync(soffice));
  } catch {
    return undefined;
  }
  for (const name of ['python', 'python.exe', 'python3']) {
    const candidate = path.join(program, name);
    if (isExecutableSync(candidate)) return candidate;
  }
  return undefined;
}

function hasUno(python: string): boolean {
  try {
    execFileSync(python, ['-c', 'import uno, unohelper'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** Whether this machine lets us start soffice in a network namespace of its own (no network at all). */
export function canIsolateNetwork(): boolean {
  try {
    execFileSync('unshare', ['--user', '--map-root-user', '--net', 'true'], { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}
