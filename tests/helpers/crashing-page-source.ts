// A real headless page source (CHROME_PATH honoured) with a test-only way to crash things: an html
// render whose HTML carries CRASH_PAGE crashes its page's renderer process (Page.crash) each time;
// one carrying CRASH_BROWSER crashes the whole browser (Browser.crash) the first time only, as a
// crash caused by another render would; CRASH_BROWSER_ALWAYS every time. Nothing a page can do by itself reaches either command.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CdpPage } from '../../server/src/render/cdp-page.ts';
import type { ChromiumPageSource } from '../../server/src/render/chromium-page-source.ts';
import { startChromiumPageSource, type PageSourceFactory } from '../../server/src/render/index.ts';
import { engineUnderTest } from './engines.ts';
import type { PageLease, PageSource } from '../../server/src/render/page-source.ts';
import type { RenderSource } from '../../server/src/render/render-source.ts';
import type { PageUse } from '../../server/src/render/render-path.ts';

export const CRASH_PAGE = 'test-crash-page';
export const CRASH_BROWSER = 'test-crash-browser';
/** Crashes the browser every time (a build that keeps crashing under one render path). */
export const CRASH_BROWSER_ALWAYS = 'test-crash-browser-always';

export class CrashingPageSource implements PageSource {
  private readonly patched = new WeakSet<CdpPage>();
  browserCrashes = 0;

  constructor(
    readonly inner: ChromiumPageSource,
    private readonly workDir: string,
  ) {}

  get renderPath() {
    return this.inner.renderPath;
  }
  get version() {
    return this.inner.version;
  }
  get restarts() {
    return this.inner.restarts;
  }
  probe() {
    return this.inner.probe();
  }
  async close() {
    await this.inner.close();
    await rm(this.workDir, { recursive: true, force: true });
  }

  async acquire(kind: RenderSource['kind'], clock?: 'real' | 'virtual', use?: PageUse): Promise<PageLease> {
    const lease = await this.inner.acquire(kind, clock, use);
    const { page } = lease;
    if (!this.patched.has(page)) {
      this.patched.add(page);
      const load = page.load.bind(page);
      page.load = (source, ...rest) => {
        if (source.kind === 'html' && source.html.includes(CRASH_PAGE)) void page.session.send('Page.crash').catch(() => undefined);
        const crashBrowser =
          source.kind === 'html' && (source.html.includes(CRASH_BROWSER_ALWAYS) || (source.html.includes(CRASH_BROWSER) && this.browserCrashes === 0));
        if (source.kind === 'html' && source.html.includes(CRASH_BROWSER)) this.browserCrashes++;
        if (crashBrowser) void page.session.send('Browser.crash').catch(() => undefined);
        return load(source, ...rest);
      };
    }
    return lease;
  }
}

/** A factory for AppOverrides.pageSource; `made` receives the source so a test can read its counts. */
export function crashingPageSource(made: (source: CrashingPageSource) => void): PageSourceFactory {
  return async (context) => {
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'quire-crash-'));
    const inner = await startChromiumPageSource({
      chromePath: engineUnderTest.path,
      fontsDir: '',
      workDir,
      recycleAfter: 0,
      proxyServer: context.proxyServer,
      log: context.log,
      hooks: { onRenderPathFallback: context.onRenderPathFallback },
    });
    const source = new CrashingPageSource(inner, workDir);
    made(source);
    return source;
  };
}
