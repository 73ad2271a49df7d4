// Headless entry. The Node version is checked before anything else loads: the other modules use
// newer Node APIs, and a server that started on an old Node would serve with a half-working store
// (Node 20 broke the batch store's writer). So an unsupported Node gets one line and exit 1.

import { unsupportedNodeLine } from './node-support.mjs';

const refusal = unsupportedNodeLine('npm start');
if (refusal) {
  console.error(refusal);
  process.exit(1);
}
await import('./serve.ts');
