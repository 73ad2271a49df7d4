import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PDF_OPTIONS, PAPER_FORMATS, PAPER_SIZE_POINTS, type PdfOptions } from '../../../server/src/render/pdf-options.ts';
import { toPrintToPdfParams } from '../../../server/src/render/print-params.ts';

const options = (overrides: Partial<PdfOptions> = {}): PdfOptions => ({ ...DEFAULT_PDF_OPTIONS, ...overrides });

function closeTo(actual: number | undefined, expected: number, what: string): void {
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-9, `${what}: ${actual} != ${expected}`);
}

test('printToPDF gets the paper size of every format in inches, portrait, with landscape as a flag', () => {
  for (const format of PAPER_FORMATS) {
    for (const landscape of [false, true]) {
      const params = toPrintToPdfParams(options({ format, landscape }));
      closeTo(params.paperWidth, PAPER_SIZE_POINTS[format].width / 72, `${format} width`);
      closeTo(params.paperHeight, PAPER_SIZE_POINTS[format].height / 72, `${format} height`);
      assert.equal(params.landscape, landscape);
    }
  }
});

test('printToPDF gets each side of a CSS margin shorthand in inches', () => {
  const params = toPrintToPdfParams(options({ margin: '72pt 2in 76.2mm 384px' }));
  closeTo(params.marginTop, 1, 'top');
  closeTo(params.marginRight, 2, 'right');
  closeTo(params.marginBottom, 3, 'bottom');
  closeTo(params.marginLeft, 4, 'left');
  closeTo(toPrintToPdfParams(DEFAULT_PDF_OPTIONS).marginTop, 1 / 2.54, 'default 1cm');
});

test('printToPDF gets background, scale, CSS page size and tagging as given', () => {
  const params = toPrintToPdfParams(options({ print_background: false, scale: 0.5, prefer_css_page_size: true, tagged: true }));
  assert.equal(params.printBackground, false);
  assert.equal(params.scale, 0.5);
  assert.equal(params.preferCSSPageSize, true);
  assert.equal(params.generateTaggedPDF, true);
  const defaults = toPrintToPdfParams(DEFAULT_PDF_OPTIONS);
  assert.equal(defaults.printBackground, true);
  assert.equal(defaults.scale, 1);
  assert.equal(defaults.preferCSSPageSize, false);
  assert.equal(defaults.generateTaggedPDF, false);
});

test('printToPDF gets page ranges without spaces, or none for every page', () => {
  assert.equal(toPrintToPdfParams(options({ page_ranges: ' 1 - 3 , 5 ' })).pageRanges, '1-3,5');
  assert.equal(toPrintToPdfParams(DEFAULT_PDF_OPTIONS).pageRanges, '');
});

test('printToPDF shows header and footer only when a template is given, blanking the missing one', () => {
  const none = toPrintToPdfParams(DEFAULT_PDF_OPTIONS);
  assert.equal(none.displayHeaderFooter, false);
  const footer = toPrintToPdfParams(options({ footer_template: '<span class="pageNumber"></span>' }));
  assert.equal(footer.displayHeaderFooter, true);
  assert.equal(footer.footerTemplate, '<span class="pageNumber"></span>');
  assert.equal(footer.headerTemplate, '<span></span>');
  const header = toPrintToPdfParams(options({ header_template: '<b>H</b>' }));
  assert.equal(header.headerTemplate, '<b>H</b>');
  assert.equal(header.footerTemplate, '<span></span>');
});

test('printToPDF answers in one piece, without an outline', () => {
  const params = toPrintToPdfParams(DEFAULT_PDF_OPTIONS);
  assert.equal(params.transferMode, 'ReturnAsBase64');
  assert.equal(params.generateDocumentOutline, false);
});
