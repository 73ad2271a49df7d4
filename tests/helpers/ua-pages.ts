// Small HTML pages for the PDF/UA tests (tests/api/pdf-ua*.test.ts): a table, images with and
// without alt text, links, and print options with header and footer templates.

import type { PDFOptions } from 'puppeteer-core';

const svg = (colour: string) =>
  `data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='40' height='40'%3E%3Crect width='40' height='40' fill='${colour}'/%3E%3C/svg%3E`;

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

/** A price table; `scope` goes on every header cell (first row and first column). */
export const TABLE_PAGE = (scope: string) =>
  page(
    'Prices',
    `<h1>Prices</h1><table><tr><th ${scope}>Item</th><th ${scope}>Price</th></tr>` +
      `<tr><th ${scope.replace('col', 'row')}>Tea</th><td>3.00</td></tr><tr><th ${scope.replace('col', 'row')}>Cake</th><td>4.50</td></tr></table>`,
  );

export const IMAGES_PAGE = page('Squares', `<h1>Squares</h1><p><img alt="A red square" src="${svg('red')}"> and a decoration <img src="${svg('blue')}"></p>`);

export const LINKS_PAGE = page(
  'Prices and contact',
  `<h1>Prices</h1><h2>Where</h2><p>See <a href="https://example.com/prices">the price list</a> or write to <a href="mailto:sales@example.com">sales</a>.</p>`,
);

export const HEADED_PAGE_OPTIONS: PDFOptions = {
  displayHeaderFooter: true,
  headerTemplate: '<div style="font-size:9px;margin-left:1cm">Quire report header</div>',
  footerTemplate: '<div style="font-size:9px;margin-left:1cm">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
  margin: { top: '2cm', bottom: '2cm' },
};

/** Headings, a link, an image with alt text and a table on one page: the good file the negative controls break. */
export const COMBINED_PAGE = page(
  'Combined',
  `<h1>Report</h1><h2>Prices</h2><p>See <a href="https://example.com/prices">the price list</a>.</p>` +
    `<p><img alt="A red square" src="${svg('red')}"></p>` +
    '<table><tr><th scope="col">Item</th><th scope="col">Price</th></tr><tr><td>Tea</td><td>3.00</td></tr></table>',
);
