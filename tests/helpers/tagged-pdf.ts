// Chromium's tagged PDFs for the PDF/UA tests: one browser launched through the project's own
// BrowserHost (the engine under test), pages printed with puppeteer's page.pdf({tagged: true}) as
// the render path does with `tagged`, and the starter invoice expanded from docs/examples.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import type { PDFOptions } from 'puppeteer-core';
import { BrowserHost } from '../../server/src/render/browser-host.ts';
import { findChromium } from '../../server/src/render/chromium-path.ts';
import { compileTemplate, expandTemplate, MAX_EXPAND_STEPS } from '../../server/src/render/template.ts';
import { engineUnderTest } from './engines.ts';

const EXAMPLES = path.join(import.meta.dirname, '../../docs/examples');

export interface TaggedPrinter {
  /** The HTML printed as an A4 tagged PDF; `options` are passed on to page.pdf. */
  print(html: string, options?: PDFOptions): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** A launched Chromium that prints tagged PDFs; close it after the tests. */
export async function taggedPrinter(): Promise<TaggedPrinter> {
  const host = new BrowserHost({ executable: await findChromium(engineUnderTest.path), env: {}, recycleAfter: 0, log: pino({ level: 'silent' }) });
  await host.start();
  return {
    async print(html, options = {}) {
      const { browser } = await host.generation();
      const page = await browser.newPage();
      try {
        await page.setContent(html, { waitUntil: 'load' });
        return await page.pdf({ format: 'A4', printBackground: true, tagged: true, ...options });
      } finally {
        await page.close();
      }
    },
    close: () => host.close(),
  };
}

/** The starter invoice (docs/examples/invoice-template.html with invoice.json) as HTML. */
export function invoiceHtml(): string {
  const template = compileTemplate(readFileSync(path.join(EXAMPLES, 'invoice-template.html'), 'utf8'));
  const data = JSON.parse(readFileSync(path.join(EXAMPLES, 'invoice.json'), 'utf8'));
  return expandTemplate(template, data, { maxOutputLength: 10_000_000, maxSteps: MAX_EXPAND_STEPS });
}
