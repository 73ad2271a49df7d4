// A PageSource with no browser behind it, for the fast test lane (npm run test:fast): every
// render "loads" nothing and prints a one-page PDF of the paper size the print parameters ask
// for (landscape already applied by print-params.ts), made with pdf-lib. So a fast test can
// honestly assert that a render answered a PDF, its page count of 1 and its page size; anything
// about the document's content (text, layout, several pages, scripts, the network, images) needs
// the real Chromium and stays in the full lane (npm test).
// start-app.ts uses it when QUIRE_TEST_PAGES=fake (set by the test:fast script).

import type { Protocol } from 'puppeteer-core';
import type { CdpPage } from '../../server/src/render/cdp-page.ts';
import type { PageSourceFactory } from '../../server/src/render/index.ts';
import type { PageLease, PageSource } from '../../server/src/render/page-source.ts';
import type { RenderPath } from '../../server/src/render/render-path.ts';

/**
 * A session that only takes what a receipt's recorder asks (render/render-trace.ts: listeners,
 * Runtime on and off, one evaluate), so stored renders keep their receipts here; anything else a
 * render would send (credentials, image capture) fails loudly.
 */
const FAKE_SESSION = {
  on() {},
  off() {},
  async send(method: string): Promise<unknown> {
    if (method === 'Runtime.enable' || method === 'Runtime.disable') return {};
    if (method === 'Runtime.evaluate') return { result: { value: { loading: [], families: [] } } };
    throw new Error(`the fake page source has no CDP session for ${method} (this test needs the real-Chromium lane)`);
  },
};

/** The subset of CdpPage that Renderer drives; its session only serves the receipt recorder (credential and image renders fail loudly here). */
class FakePage {
  readonly session = FAKE_SESSION;
  async emulateMedia(): Promise<void> {}
  clockNotes(): string[] {
    return [];
  }
  async load(): Promise<{ status?: number }> {
    return {};
  }
  async waitForSelector(): Promise<void> {}
  async waitForFunction(): Promise<boolean> {
    return true;
  }
  async wait(ms: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
  async print(params: Protocol.Page.PrintToPDFRequest): Promise<Uint8Array> {
    // pdf-lib loads on the first fake print: every API test process imports this module through
    // start-app.ts, and loading pdf-lib there cost ~0.35 s of CPU per process for nothing.
    const { PDFDocument } = await import('pdf-lib');
    const pdf = await PDFDocument.create();
    // Chromium's defaults when no paper size is given: US Letter.
    pdf.addPage([(params.paperWidth ?? 8.5) * 72, (params.paperHeight ?? 11) * 72]);
    // Plain objects as Chromium writes them, so countPages reads the page count as it does for a real render.
    return pdf.save({ useObjectStreams: false });
  }
}

export class FakePageSource implements PageSource {
  readonly version = 'FakeChromium/0 (no browser: fast test lane)';
  readonly restarts = 0;
  readonly renderPath: RenderPath = { mode: 'real', reason: 'no browser (fast test lane)', disabled: [], probeMs: 0 };
  async acquire(): Promise<PageLease> {
    return { page: new FakePage() as unknown as CdpPage, release: async () => undefined };
  }
  async probe(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {}
}

export const fakePageSource: PageSourceFactory = async () => new FakePageSource();

/** Whether this test run is the fast lane (QUIRE_TEST_PAGES=fake). */
export function fastLane(): boolean {
  return process.env.QUIRE_TEST_PAGES === 'fake';
}
