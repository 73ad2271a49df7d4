// The machine's own Node when it is older than Quire supports (Node 20 at /usr/bin/node, as on CI's
// machines): the tests of the launcher and of the server's entries run on it, and skip, saying so,
// where the machine has no such Node.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { satisfiesEngines, enginesRange } from '../../server/src/node-support.mjs';

function oldSystemNode(): string | undefined {
  if (!existsSync('/usr/bin/node')) return undefined;
  const version = execFileSync('/usr/bin/node', ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  return satisfiesEngines(version, enginesRange()) ? undefined : version;
}

/** The version of /usr/bin/node when it is outside package.json's engines, else undefined. */
export const OLD_SYSTEM_NODE = oldSystemNode();

/** This process's environment with `folder` first on PATH. */
export function withPathFirst(folder: string): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${folder}:${process.env.PATH}` };
}
