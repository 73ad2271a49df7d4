// PageSource on the headless Chromium of BrowserHost. Each render gets a fresh incognito
// context and page, closed when the lease is released.

import type { BrowserContext, Page } from 'puppeteer-core';
import type { BrowserGeneration, BrowserHost } from './browser-host.ts';
import { RendererCrashedError } from './errors.ts';
import type { LoadOptions, PageLease, PageSource, RenderSource } from './page-source.ts';

export class ChromiumPageSource implements PageSource {
  constructor(private readonly host: BrowserHost) {}

  get version(): string {
    return this.host.version;
  }

  get restarts(): number {
    return this.host.restarts;
  }

  probe(): Promise<boolean> {
    return this.host.probe();
  }

  close(): Promise<void> {
    return this.host.close();
  }

  async acquire(): Promise<PageLease> {
    const generation = await this.host.generation();
    generation.inFlight++;
    let context: BrowserContext | undefined;
    try {
      context = await generation.browser.createBrowserContext();
      const page = await context.newPage();
      hardenPage(page);
      return new IncognitoLease(this.host, generation, context, page);
    } catch (error) {
      await context?.close().catch(() => undefined);
      this.host.leave(generation);
      throw new RendererCrashedError(`could not open a page: ${(error as Error).message}`);
    }
  }
}

class IncognitoLease implements PageLease {
  constructor(
    private readonly host: BrowserHost,
    private readonly generation: BrowserGeneration,
    private readonly context: BrowserContext,
    readonly page: Page,
  ) {}

  load(source: RenderSource, { waitUntil, timeoutMs }: LoadOptions) {
    if (source.kind === 'url') return this.page.goto(source.url, { waitUntil, timeout: timeoutMs });
    return this.page.setContent(source.html, { waitUntil: waitUntil as 'load', timeout: timeoutMs }).then(() => null);
  }

  async release(): Promise<void> {
    try {
      await this.context.close();
    } finally {
      this.host.countRender(this.generation);
      this.host.leave(this.generation);
    }
  }
}

/** Dialogs would block the page forever and popups are not ours to render: refuse both. */
export function hardenPage(page: Page): void {
  page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
  page.on('popup', (popup) => void popup?.close().catch(() => undefined));
}
