// The lanes of `npm test`, by name: which files each runs and with what around them. One table,
// so `npm test` (every lane at once, in one pool: scripts/run-tests.ts) and the single-lane
// scripts (`npm run test:unit`, ...) can never disagree about what a lane holds. A new test file
// joins its lane by matching its pattern.

import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export interface Lane {
  /** Path patterns relative to the repository; `*` matches within one path segment. */
  patterns: string[];
  /** Added to the environment of the lane's files. */
  env?: Record<string, string>;
  /** Files that do not say `test-lane: own-server` run on one shared server (tests/helpers/shared-server.ts). */
  sharedServer?: boolean;
  /** The compiled server is built once for the lane's files (tests/helpers/compiled-server.ts). */
  compiledServer?: boolean;
  /**
   * A lane that is one command rather than node:test files (Playwright): run as one job taking
   * `slots` of the pool, its output printed whole when it ends; it retries on its own under CI.
   */
  command?: { argv: string[]; slots: number };
}

/** The API files that need no browser (QUIRE_TEST_PAGES=fake prints blank pages): the fast lane. */
const NO_BROWSER = [
  'auth',
  'admin-keys',
  'documents',
  'retention',
  'bad-requests',
  'batches',
  'batches-validation',
  'batches-scheduling',
  'ui-option-spec',
  'playground-rate',
].map((name) => `tests/api/${name}.test.ts`);

export const LANES: Record<string, Lane> = {
  // tests/unit/ mirrors server/src/, services/ by capability one folder deeper.
  unit: { patterns: ['tests/unit/*/*.test.ts', 'tests/unit/services/*/*.test.ts'] },
  // Every store's contract suite on the files and on a throwaway PostgreSQL.
  stores: { patterns: ['tests/stores/*.test.ts'] },
  fast: { patterns: NO_BROWSER, env: { QUIRE_TEST_PAGES: 'fake' } },
  // The fast lane, the webhooks and tenancy through two instances on one PostgreSQL behind a proxy.
  two: {
    patterns: [...NO_BROWSER, 'tests/api/batch-webhooks.test.ts', 'tests/api/tenancy.test.ts'],
    env: { QUIRE_TEST_INSTANCES: '2', QUIRE_TEST_PAGES: 'fake' },
  },
  api: { patterns: ['tests/api/*.test.ts'], sharedServer: true, compiledServer: true },
  // The render-path files again on the other Chromium builds (tests/helpers/engines.ts).
  engines: { patterns: ['tests/engines/*.test.ts'] },
  // The server as `npm start` runs it, on the Node versions of `npm run test:node-lines`.
  compiled: { patterns: ['tests/api/compiled-server.test.ts'] },
  // Playwright's two workers, each with its own server; the UI is built before (npm test, test:e2e).
  e2e: { patterns: [], command: { argv: ['node_modules/.bin/playwright', 'test'], slots: 2 } },
};

/** The files a pattern names, sorted; `*` stands for any name within one segment. */
export function expandPattern(pattern: string, root = process.cwd()): string[] {
  if (!pattern.includes('*')) return [pattern];
  const segments = pattern.split('/');
  const walk = (dir: string, index: number): string[] => {
    const segment = segments[index]!;
    if (!segment.includes('*')) {
      const named = path.join(dir, segment);
      if (index < segments.length - 1) return walk(named, index + 1);
      return existsSync(path.join(root, named)) ? [named] : [];
    }
    const matcher = new RegExp(`^${segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`);
    let names: string[];
    try {
      names = readdirSync(path.join(root, dir)).filter((name) => matcher.test(name));
    } catch {
      return [];
    }
    return names.sort().flatMap((name) => (index === segments.length - 1 ? [path.join(dir, name)] : walk(path.join(dir, name), index + 1)));
  };
  return walk('', 0);
}

/** A lane's files, each once, in pattern order. */
export function laneFiles(lane: Lane, root = process.cwd()): string[] {
  return [...new Set(lane.patterns.flatMap((pattern) => expandPattern(pattern, root)))];
}
