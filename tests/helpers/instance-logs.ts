// The logs of server processes a test file watches (the several-instances files), printed to
// stderr when a test fails: what each instance said during that test (a render that failed, a
// reference abandoned, a lease taken over), so a failure under load says why it happened.
// Importing this module registers its beforeEach/afterEach hooks for the whole file.

import { afterEach, beforeEach } from 'node:test';
import type { ServerProcess } from './server-process.ts';

/** Lines printed per instance at most (its last ones): enough for one test's story. */
const MAX_LINES = 400;

interface Watched {
  name: string;
  server: ServerProcess;
  /** Where the current test's lines start in server.logs. */
  from: number;
}

const watched: Watched[] = [];

/** Keeps a server's log for the failure report, under `name`; one started during a test counts from its first line. */
export function watchLogs(server: ServerProcess, name: string): void {
  watched.push({ name, server, from: 0 });
}

beforeEach(() => {
  // An instance killed in an earlier test has nothing more to say.
  for (let i = watched.length - 1; i >= 0; i--) if (exited(watched[i]!.server)) watched.splice(i, 1);
  for (const entry of watched) entry.from = entry.server.logs.length;
});

afterEach((t) => {
  // Each test's context (a suite's has no outcome of its own).
  if (!('passed' in t) || t.passed) return;
  for (const { name, server, from } of watched) {
    const lines = server.logs.slice(from);
    const shown = lines.slice(-MAX_LINES);
    const skipped = lines.length - shown.length;
    const state = exited(server) ? `exited (${server.child.exitCode ?? server.child.signalCode})` : 'running';
    process.stderr.write(`\n── log of ${name} (${server.url}, ${state}) during "${t.name}"${skipped ? `, its first ${skipped} lines left out` : ''}\n`);
    if (shown.length === 0) process.stderr.write('(nothing logged)\n');
    for (const line of shown) process.stderr.write(`${JSON.stringify(line)}\n`);
  }
});

function exited(server: ServerProcess): boolean {
  return server.child.exitCode !== null || server.child.signalCode !== null;
}
