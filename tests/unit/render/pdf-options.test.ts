import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_PDF_OPTIONS,
  PAPER_FORMATS,
  PAPER_SIZE_POINTS,
  cssLengthToPx,
  hasOrderedPages,
  marginProblem,
  parseMargin,
  pdfOptionsSchema,
  type PdfOptions,
} from '../../../server/src/render/pdf-options.ts';

function closeTo(actual: number | undefined, expected: number, what = 'value'): void {
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-9, `${what}: ${actual} != ${expected}`);
}

const options = (overrides: Partial<PdfOptions> = {}): PdfOptions => ({ ...DEFAULT_PDF_OPTIONS, ...overrides });

test('cssLengthToPx converts every absolute CSS unit to CSS pixels', () => {
  const oneInch = ['1in', '2.54cm', '25.4mm', '101.6q', '72pt', '6pc', '96px'];
  for (const length of oneInch) closeTo(cssLengthToPx(length), 96, length);
  closeTo(cssLengthToPx('1cm'), 96 / 2.54, '1cm');
  closeTo(cssLengthToPx('0.5in'), 48, '0.5in');
  closeTo(cssLengthToPx('.5in'), 48, '.5in');
  closeTo(cssLengthToPx('12pt'), 16, '12pt');
});

test('cssLengthToPx accepts units in any case and surrounding spaces', () => {
  closeTo(cssLengthToPx('1IN'), 96, '1IN');
  closeTo(cssLengthToPx('10Mm'), 96 / 2.54, '10Mm');
  closeTo(cssLengthToPx('4Q'), 96 / 25.4, '4Q');
  closeTo(cssLengthToPx('  2cm '), (2 * 96) / 2.54, 'padded');
});

test('cssLengthToPx accepts a bare zero but no other unitless number', () => {
  assert.equal(cssLengthToPx('0'), 0);
  assert.equal(cssLengthToPx('0.0'), 0);
  assert.equal(cssLengthToPx('12'), undefined);
  assert.equal(cssLengthToPx('0.5'), undefined);
});

test('cssLengthToPx refuses relative units, signs, garbage and empty text', () => {
  for (const length of [
    '1em',
    '2rem',
    '10%',
    '5vw',
    '5vh',
    '1ex',
    '1ch',
    '-1cm',
    '+1cm',
    'cm',
    '1 cm',
    '1cm2',
    'wide',
    '',
    ' ',
    '1e2px',
    'calc(1cm + 1mm)',
    '1.cm',
  ]) {
    assert.equal(cssLengthToPx(length), undefined, JSON.stringify(length));
  }
});

test('parseMargin with one length sets all four sides', () => {
  assert.deepEqual(parseMargin('96px'), { top: 96, right: 96, bottom: 96, left: 96 });
});

test('parseMargin with two lengths sets vertical then horizontal sides', () => {
  assert.deepEqual(parseMargin('1in 2in'), { top: 96, right: 192, bottom: 96, left: 192 });
});

test('parseMargin with three lengths sets top, horizontal sides, bottom', () => {
  assert.deepEqual(parseMargin('1in 2in 3in'), { top: 96, right: 192, bottom: 288, left: 192 });
});

test('parseMargin with four lengths sets top, right, bottom, left in CSS order', () => {
  assert.deepEqual(parseMargin('1in 2in 3in 4in'), { top: 96, right: 192, bottom: 288, left: 384 });
});

test('parseMargin mixes units and tolerates any whitespace between lengths', () => {
  const margins = parseMargin(' 0\t72pt\n2.54cm   25.4mm ');
  assert.ok(margins);
  closeTo(margins.top, 0, 'top');
  closeTo(margins.right, 96, 'right');
  closeTo(margins.bottom, 96, 'bottom');
  closeTo(margins.left, 96, 'left');
});

test('parseMargin refuses five lengths, an empty text and any bad length', () => {
  for (const margin of ['1cm 1cm 1cm 1cm 1cm', '', '   ', '1cm 2em', '1cm, 2cm', 'auto', '1cm -1cm']) {
    assert.equal(parseMargin(margin), undefined, JSON.stringify(margin));
  }
});

test('the defaults are those of docs/api.md', () => {
  assert.deepEqual(DEFAULT_PDF_OPTIONS, {
    format: 'A4',
    landscape: false,
    margin: '1cm',
    print_background: true,
    scale: 1,
    prefer_css_page_size: false,
    media: 'print',
    timeout_ms: 30_000,
    wait_until: 'networkidle0',
    wait_clock: 'virtual',
    wait_ms: 0,
    tagged: false,
    receipt: false,
    outline: false,
  });
});

test('the schema fills defaults around the fields given', () => {
  const parsed = pdfOptionsSchema.parse({ format: 'Letter', scale: 1.5 });
  assert.deepEqual(parsed, { ...DEFAULT_PDF_OPTIONS, format: 'Letter', scale: 1.5 });
});

test('the schema accepts the bounds themselves', () => {
  for (const input of [{ scale: 0.1 }, { scale: 2 }, { timeout_ms: 1000 }, { timeout_ms: 60_000 }, { wait_ms: 0 }, { wait_ms: 5000 }]) {
    assert.ok(pdfOptionsSchema.safeParse(input).success, JSON.stringify(input));
  }
});

test('the schema refuses values just past the bounds', () => {
  for (const input of [
    { scale: 0.09 },
    { scale: 2.01 },
    { timeout_ms: 999 },
    { timeout_ms: 60_001 },
    { wait_ms: -1 },
    { wait_ms: 5001 },
    { timeout_ms: 1500.5 },
    { wait_ms: 0.5 },
  ]) {
    assert.equal(pdfOptionsSchema.safeParse(input).success, false, JSON.stringify(input));
  }
});

test('the schema refuses unknown fields', () => {
  const result = pdfOptionsSchema.safeParse({ printBackground: false });
  assert.equal(result.success, false);
  assert.equal(result.error?.issues[0]?.code, 'unrecognized_keys');
});

test('every paper format has a portrait size in points', () => {
  for (const format of PAPER_FORMATS) {
    const { width, height } = PAPER_SIZE_POINTS[format];
    assert.ok(width > 0 && height > width, format);
  }
  assert.deepEqual(PAPER_SIZE_POINTS.Letter, { width: 612, height: 792 });
});

test('page_ranges accepts pages, ranges and open ranges with spaces', () => {
  for (const ranges of ['1', '1-3', '1-3, 5', '2-', ' 1 , 3 - 4 ', '1,2,3', '3-3', '10-20,25']) {
    assert.ok(pdfOptionsSchema.safeParse({ page_ranges: ranges }).success, JSON.stringify(ranges));
  }
});

test('page_ranges refuses garbage, page 0 and backwards ranges', () => {
  for (const ranges of ['', 'all', '1,,2', '-3', '1-2-3', '1;2', 'one', '0', '0-2', '3-2', '1-3, 5-4']) {
    assert.equal(pdfOptionsSchema.safeParse({ page_ranges: ranges }).success, false, JSON.stringify(ranges));
  }
});

test('hasOrderedPages tells page 0 and backwards ranges from good lists', () => {
  assert.equal(hasOrderedPages('1-3, 5'), true);
  assert.equal(hasOrderedPages('4-'), true);
  assert.equal(hasOrderedPages('2-2'), true);
  assert.equal(hasOrderedPages('0'), false);
  assert.equal(hasOrderedPages('1, 0-1'), false);
  assert.equal(hasOrderedPages('5-1'), false);
});

test('margin is refused by the schema unless parseMargin reads it', () => {
  assert.ok(pdfOptionsSchema.safeParse({ margin: '1cm 2cm 3cm 4cm' }).success);
  assert.equal(pdfOptionsSchema.safeParse({ margin: '1em' }).success, false);
  assert.equal(pdfOptionsSchema.safeParse({ margin: '1cm '.repeat(30) }).success, false);
});

test('marginProblem accepts margins that leave room on the paper', () => {
  assert.equal(marginProblem(options()), undefined);
  assert.equal(marginProblem(options({ margin: '0' })), undefined);
  // Letter is 8.5in wide: 4in on each side still leaves half an inch.
  assert.equal(marginProblem(options({ format: 'Letter', margin: '0 4in' })), undefined);
});

test('marginProblem names the paper when the sides meet or cross', () => {
  assert.equal(marginProblem(options({ format: 'Letter', margin: '0 4.25in' })), 'leaves no room for content on Letter paper');
  assert.ok(marginProblem(options({ format: 'A4', margin: '15cm 0' })), 'top and bottom beyond the A4 height');
});

test('marginProblem judges landscape on the turned sheet', () => {
  // Letter landscape is 11in wide and 8.5in tall.
  assert.ok(marginProblem(options({ format: 'Letter', margin: '0 5in' })));
  assert.equal(marginProblem(options({ format: 'Letter', landscape: true, margin: '0 5in' })), undefined);
  assert.match(marginProblem(options({ format: 'Letter', landscape: true, margin: '4.5in 0' })) ?? '', /landscape/);
});

test('marginProblem leaves the check to Chromium when the page size comes from CSS', () => {
  assert.equal(marginProblem(options({ margin: '20in', prefer_css_page_size: true })), undefined);
});

test('marginProblem does not judge input that has not passed validation', () => {
  assert.equal(marginProblem({ ...options(), margin: 10 as unknown as string }), undefined);
  assert.equal(marginProblem({ ...options(), margin: '1em' }), undefined);
  assert.equal(marginProblem({ ...options({ margin: '20in' }), format: 'B5' as PdfOptions['format'] }), undefined);
});
