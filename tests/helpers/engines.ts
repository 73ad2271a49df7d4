// The Chromium builds the render tests run on (docs/testing.md#engines-which-chromium-builds-are-tested). QUIRE_TEST_ENGINE picks one for a
// test process (start-app.ts hands its path to the server as CHROME_PATH would); unset, the
// default lookup applies (the npm headless shell). One "engine" is the desktop app's page source
// on a stand-in for Electron (its binary cannot run here). The engine matrix (tests/engines/) runs the
// render-path test files once per build; tests/api/engine-parity.test.ts compares their PDFs.

import { isExecutableSync } from '../../server/src/executable.ts';

export type EngineId = 'npm-shell' | 'debian-shell' | 'debian-full' | 'electron-standin' | 'chrome-path';

export interface TestEngine {
  id: EngineId;
  /** For test names and reports. */
  name: string;
  /** CHROME_PATH for it; '' is the default lookup (the npm-shipped headless shell). */
  path: string;
  /**
   * 'electron': renders go through the desktop app's page source (electron/electron-page-source.ts)
   * on a stand-in for Electron's API forwarding to this Chromium (fake-electron.ts electronStandIn).
   */
  pages?: 'electron';
}

export const ENGINES: readonly TestEngine[] = [
  { id: 'npm-shell', name: 'the npm headless shell (@sparticuz/chromium)', path: '' },
  { id: 'debian-shell', name: "Debian's chromium-headless-shell", path: '/usr/lib/chromium/chromium-headless-shell' },
  // Like Electron's Chromium: no HeadlessExperimental domain, so no frames drawn on request.
  { id: 'debian-full', name: "Debian's full chromium (--headless=new)", path: '/usr/lib/chromium/chromium' },
  // Electron cannot be launched here; its page source's CDP command sequence can, on the closest Chromium.
  {
    id: 'electron-standin',
    name: "the desktop app's Electron page source on Debian's full chromium",
    path: '/usr/lib/chromium/chromium',
    pages: 'electron',
  },
];

/** The engine by id; throws on an unknown one, naming the known ids. */
export function engineById(id: string): TestEngine {
  const engine = ENGINES.find((candidate) => candidate.id === id);
  if (!engine) throw new Error(`QUIRE_TEST_ENGINE=${id} is not a test engine (one of ${ENGINES.map((known) => known.id).join(', ')})`);
  return engine;
}

/** The engine this test process renders on: QUIRE_TEST_ENGINE, else any CHROME_PATH, else the npm headless shell. */
export const engineUnderTest: TestEngine = process.env.QUIRE_TEST_ENGINE
  ? engineById(process.env.QUIRE_TEST_ENGINE)
  : process.env.CHROME_PATH
    ? { id: 'chrome-path', name: `CHROME_PATH=${process.env.CHROME_PATH}`, path: process.env.CHROME_PATH }
    : engineById('npm-shell');

/**
 * Why the engine cannot run here (its binary is missing), or false. In CI nothing may be missing
 * (scripts/setup.sh installs every engine), so a test there runs and fails instead of skipping.
 */
export function missingEngine(engine: TestEngine): string | false {
  if (!engine.path || isExecutableSync(engine.path)) return false;
  if (process.env.CI) return false;
  return `${engine.path} is not installed (scripts/setup.sh installs it)`;
}
