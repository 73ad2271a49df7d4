// The studio's accessibility warnings (ui/src/lib/template-a11y-lint.ts, issue 42 item 4): given the
// outline a browser's DOMParser reads, which elements are flagged, where in the source, and why.
// The DOMParser half is driven in Chromium by tests/e2e/studio-a11y-lint.spec.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accessibilityProblems, type HtmlOutline } from '../../../ui/src/lib/template-a11y-lint.ts';

const TITLED = { lang: 'en', title: 'Invoice', images: [], tables: [], headings: [] } satisfies HtmlOutline;
const PAGE = (body: string) => `<html lang="en"><head><title>Invoice</title></head><body>${body}</body></html>`;

function flagged(html: string, outline: Partial<HtmlOutline>): { at: string; message: string }[] {
  return accessibilityProblems(html, { ...TITLED, ...outline }).map((problem) => ({
    at: html.slice(problem.from, problem.to),
    message: problem.message,
  }));
}

test('an image without alt is marked at its tag; alt="" (decoration) is not', () => {
  const html = PAGE('<img alt="" src="a.png"><!-- <img src="old.png"> --><img src="{{logo}}">');
  const found = flagged(html, { images: [{ hasAlt: true }, { hasAlt: false }] });
  assert.equal(found.length, 1);
  assert.equal(found[0]!.at, '<img src="{{logo}}">', 'the commented-out image is not counted');
  assert.match(found[0]!.message, /alt="what the image shows"/);
  assert.deepEqual(flagged(html, { images: [{ hasAlt: true }, { hasAlt: true }] }), []);
});

test('a table without <th> is marked; one with a header row is not', () => {
  const html = PAGE('<table><tr><th>Item</th></tr></table><table class="lines"><tr><td>Pen</td></tr></table>');
  const found = flagged(html, { tables: [{ hasTh: true }, { hasTh: false }] });
  assert.deepEqual(
    found.map((problem) => problem.at),
    ['<table class="lines">'],
  );
  assert.match(found[0]!.message, /<th> instead of <td>/);
});

test('a heading that skips a level, and a first heading below h1, are marked', () => {
  const html = PAGE('<h1>Invoice</h1><h2>Lines</h2><h4>Notes</h4><h2>Total</h2><h3>Tax</h3>');
  const found = flagged(html, { headings: [1, 2, 4, 2, 3] });
  assert.deepEqual(
    found.map((problem) => problem.at),
    ['<h4>'],
  );
  assert.match(found[0]!.message, /Make it an <h3>/);
  const second = flagged(PAGE('<h2>Lines</h2>'), { headings: [2] });
  assert.equal(second[0]!.at, '<h2>');
  assert.match(second[0]!.message, /first heading is an <h2>/);
});

test('a missing lang or title is marked, and a fragment is told to wrap itself in <html>', () => {
  assert.deepEqual(flagged(PAGE('<p>Hi</p>'), {}), []);
  const page = '<html><head></head><body>Hi</body></html>';
  const found = flagged(page, { lang: '', title: '' });
  assert.deepEqual(
    found.map((problem) => problem.at),
    ['<html>', '<head>'],
  );
  assert.match(found[0]!.message, /lang="en"/);
  assert.match(found[1]!.message, /<title>/);
  assert.doesNotMatch(found[0]!.message, /wrap it/);
  const fragment = flagged('<p>Dear {{name}}</p>', { lang: '', title: '' });
  assert.equal(fragment.length, 2);
  for (const problem of fragment) assert.match(problem.message, /no <html> element: wrap it/);
});
