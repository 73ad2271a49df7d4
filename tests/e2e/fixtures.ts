// Fixtures of the end-to-end tests: one Quire server per worker (worker-server.ts: the compiled
// server in a process of its own, on port 0 with a temporary DATA_DIR and a known admin token); an `admin` page already signed in; helpers
// to ask the server what it offers and to save a screenshot as a test artifact.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import type { TestServer } from '../helpers/start-app.ts';
import { startWorkerServer } from './worker-server.ts';

interface WorkerFixtures {
  quire: TestServer;
}

interface TestFixtures {
  /** A page signed in to /admin with the admin token (kept in session storage, as after the form). */
  admin: Page;
  /** Whether the server's OpenAPI document has this path (for flows whose API is not built yet). */
  serverHas: (path: string) => Promise<boolean>;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  quire: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this destructuring and refuses any other first parameter
    async ({}, use) => {
      const { server, stop } = await startWorkerServer();
      await use(server);
      await stop();
    },
    // A deadline for a loaded machine, not a speed check: at load 20-25 on 2 cores, starting the
    // server and its Chromium took past the 60 s default (documents.spec's fixture, 2026-11-28).
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ quire }, use) => use(quire.url),
  // Every page is watched for script errors and CSP refusals; a failed API call logged by the
  // browser ("Failed to load resource") is expected in tests of error paths.
  page: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
    });
    await use(page);
    expect(errors, 'errors in the browser console').toEqual([]);
  },
  admin: async ({ page, quire }, use) => {
    await page.addInitScript((token) => sessionStorage.setItem('quire.adminToken', token), quire.adminToken);
    await use(page);
  },
  serverHas: async ({ quire }, use) => {
    let paths: Set<string> | undefined;
    await use(async (wanted) => {
      if (!paths) {
        const document = (await (await fetch(`${quire.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
        paths = new Set(Object.keys(document.paths));
      }
      return paths.has(wanted);
    });
  },
});

export { expect };

/** Saves a full-page screenshot to test-results/screenshots/NAME.png and attaches it to the report. */
export async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const folder = path.join('test-results', 'screenshots');
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** The page must never scroll sideways (it has to work at 1024x700 and wider). */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
}
