// `npm run -s cli -- <command>` entry: the Node version is checked before the commands load (see
// main.ts for why); an unsupported Node gets one line and exit 1.

import { unsupportedNodeLine } from './node-support.mjs';

const refusal = unsupportedNodeLine('npm run cli');
if (refusal) {
  console.error(refusal);
  process.exit(1);
}
await import('./cli-commands.ts');
