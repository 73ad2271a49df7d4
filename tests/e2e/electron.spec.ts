// The desktop app end to end, with Playwright's Electron support: the real Electron binary runs
// dist/electron/main.mjs, starts the server in-process, opens the admin window with the token
// handed over through the preload, renders a PDF on Electron's own Chromium, and quits cleanly.
// Skipped (saying why) where no Electron binary is installed: machines without internet install
// the electron package without its binary.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { _electron, expect, test } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * The installed Electron binary, found without require('electron'): that call tries to download a
 * missing binary, which hangs where there is no internet.
 */
function electronBinary(): string | undefined {
  try {
    const packageDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const relative = readFileSync(path.join(packageDir, 'path.txt'), 'utf8').trim();
    const binary = path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(packageDir, 'dist'), relative);
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

const binary = electronBinary();
const SKIP_REASON =
  'Electron binary not installed: ELECTRON_SKIP_BINARY_DOWNLOAD on machines without internet (run `npx install-electron` where there is internet)';

test.describe('desktop app', () => {
  test.skip(!binary, SKIP_REASON);
  // The list reporter shows a skipped test without its reason: say it in the log too.
  if (!binary && !process.env.TEST_WORKER_INDEX) console.log(`electron.spec.ts skipped: ${SKIP_REASON}`);

  test.beforeAll(() => {
    execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'build-electron.ts')], { cwd: root, stdio: 'inherit' });
  });

  test("starts the server, hands the admin window its token, renders on Electron's Chromium and quits cleanly", async () => {
    test.setTimeout(120_000);
    const userData = await mkdtemp(path.join(os.tmpdir(), 'quire-desktop-e2e-'));
    try {
      const app = await _electron.launch({
        executablePath: binary!,
        // Chromium refuses to start its sandbox as root (CI containers); only the test drops it.
        args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), path.join(root, 'dist', 'electron', 'main.mjs')],
        cwd: root,
        env: { ...process.env, QUIRE_USER_DATA_DIR: userData, QUIRE_LOG_LEVEL: 'warn' },
      });
      const window = await app.firstWindow();
      await window.waitForURL(/\/admin/);
      const origin = new URL(window.url()).origin;
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const token = await window.evaluate(() => (globalThis as unknown as { quire: { getAdminToken(): Promise<string> } }).quire.getAdminToken());
      expect(token).toBe(readFileSync(path.join(userData, 'data', 'admin-token'), 'utf8').trim());
      expect(
        await window.evaluate(() => [typeof (globalThis as Record<string, unknown>).require, typeof (globalThis as Record<string, unknown>).process]),
      ).toEqual(['undefined', 'undefined']);

      const health = (await (await fetch(`${origin}/health`)).json()) as { status: string; renderer: { browser: string } };
      expect(health.status).toBe('ok');
      expect(health.renderer.browser).toMatch(/^Electron\//);

      const issued = await fetch(`${origin}/admin/v1/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'e2e', plan: 'starter' }),
      });
      expect(issued.status).toBe(201);
      const { key } = (await issued.json()) as { key: string };
      const rendered = await fetch(`${origin}/v1/pdf`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ html: '<h1>Rendered by the desktop app</h1>', options: { wait_until: 'load' } }),
      });
      expect(rendered.status).toBe(200);
      expect(
        Buffer.from(await rendered.arrayBuffer())
          .subarray(0, 5)
          .toString('latin1'),
      ).toBe('%PDF-');

      const exited = new Promise<number | null>((resolve) => app.process().once('exit', (code) => resolve(code)));
      await app.close();
      expect(await exited).toBe(0);
      await expect(fetch(`${origin}/health`)).rejects.toThrow();
    } finally {
      await rm(userData, { recursive: true, force: true });
    }
  });
});
