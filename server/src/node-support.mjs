// Which Node versions Quire runs on: the `engines` range in package.json, the one place it is
// written. Plain JavaScript, so that any old Node can run it: the server checks itself with it
// before loading anything else (main.ts, cli.ts), and scripts/supported-node.sh runs this file to
// decide whether the npm scripts need a newer Node than the machine's own (exit 0: supported).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Whether `version` ("20.20.2") satisfies `range`: caret alternatives such as "^22.12.0 || ^24.0.0". */
export function satisfiesEngines(version, range) {
  const [major, minor, patch] = version.replace(/^v/, '').split('.').map(Number);
  return range.split('||').some((alternative) => {
    const match = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(alternative);
    if (!match) return false;
    const [wantMajor, wantMinor, wantPatch] = match.slice(1).map(Number);
    return major === wantMajor && (minor > wantMinor || (minor === wantMinor && patch >= wantPatch));
  });
}

/** package.json's engines.node, found from `start` upwards (the source tree and dist/ alike). */
export function enginesRange(start = path.dirname(fileURLToPath(import.meta.url))) {
  for (let at = start; at !== path.dirname(at); at = path.dirname(at)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(at, 'package.json'), 'utf8'));
      if (manifest.name === 'quire') return manifest.engines.node;
    } catch {
      // no package.json here: look further up
    }
  }
  throw new Error('no package.json of quire above this module');
}

/**
 * The one line to print when this Node cannot run `command` ("npm start"), or undefined when it can.
 * The npm scripts switch to a supported Node by themselves (scripts/supported-node.sh), so the
 * line names them first, and with-node.sh for running a file by hand.
 */
export function unsupportedNodeLine(command, version = process.versions.node, range = enginesRange()) {
  if (satisfiesEngines(version, range)) return undefined;
  return `quire: Node ${version} is not supported (package.json engines: ${range}). Run \`${command}\`, which uses a supported Node (installed from npm on first use), or: scripts/with-node.sh 24 ${command}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = satisfiesEngines(process.versions.node, enginesRange()) ? 0 : 1;
}
