// Playwright end-to-end tests (tests/e2e/*.spec.ts; node:test never sees them). The browser is the
// project's own Chromium (@sparticuz/chromium's headless shell, or CHROME_PATH): nothing is
// downloaded. Each worker starts the compiled server in a process of its own (tests/e2e/worker-server.ts); screenshots of every
// page land in test-results/screenshots/.

import { defineConfig } from '@playwright/test';
import { findChromium } from './server/src/render/chromium-path.ts';

const chromium = await findChromium(process.env.CHROME_PATH ?? '');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // Builds the UI when dist/ui is not current and compiles the server once for the workers.
  globalSetup: './tests/e2e/global-setup.ts',
  outputDir: 'test-results/e2e',
  // Two workers, each with its own server (tests/e2e/fixtures.ts): files split between them, a
  // file's tests stay in order in one worker. QUIRE_E2E_WORKERS=1 runs them one at a time.
  workers: Number(process.env.QUIRE_E2E_WORKERS ?? 2),
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  // One retry under CI only, so the log shows whether a failing spec fails again; a spec that
  // failed and then passed is "flaky" and still fails the run (a newcomer has no retry;
  // docs/testing.md#retries-under-ci).
  retries: process.env.CI ? 1 : 0,
  failOnFlakyTests: true,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: chromium.path,
      // Chromium refuses to run as root with its sandbox on.
      args: isRoot ? ['--no-sandbox'] : [],
    },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
});
