// The tolerant scan for Quire's elements (render/quire-elements/element-scan.ts) reads the HTML as
// the browser's tokenizer would: comments, raw text and quoted attributes hold no element; values
// come back decoded; the expander splices drawings in and names the element, line and attribute.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeReferences, findElements } from '../../../../server/src/render/quire-elements/element-scan.ts';
import { expandQuireElements, MAX_ELEMENTS } from '../../../../server/src/render/quire-elements/expand.ts';
import { DrawingsTooLargeError, ElementAttributeError, ElementInvalidError } from '../../../../server/src/render/quire-elements/errors.ts';
import type { ElementDrawer } from '../../../../server/src/render/quire-elements/registry.ts';

const NAMES = new Set(['quire-barcode', 'quire-chart']);

test('elements are found with decoded attributes and content, in any letter case, closed, self-closed or left open', () => {
  const html = [
    '<p>a</p><quire-barcode type=qrcode data="a&amp;b &quot;c&quot; &#x41;&#66;&euro;"></quire-barcode>',
    "<QUIRE-Chart width='3cm' Data-Option='{\"a\":1}'>{&quot;x&quot;: 1}</Quire-chart>",
    '<quire-barcode data="x" type="code128"/>',
    '<quire-barcode type="ean13" data="1" data="2">',
  ].join('\n');
  const found = findElements(html, NAMES);
  assert.deepEqual(
    found.map(({ name, attributes, content }) => ({ name, attributes, content })),
    [
      { name: 'quire-barcode', attributes: { type: 'qrcode', data: 'a&b "c" AB€' }, content: '' },
      { name: 'quire-chart', attributes: { width: '3cm', 'data-option': '{"a":1}' }, content: '{"x": 1}' },
      { name: 'quire-barcode', attributes: { data: 'x', type: 'code128' }, content: '' },
      { name: 'quire-barcode', attributes: { type: 'ean13', data: '1' }, content: '' },
    ],
  );
  assert.equal(html.slice(found[0]!.start, found[0]!.end), '<quire-barcode type=qrcode data="a&amp;b &quot;c&quot; &#x41;&#66;&euro;"></quire-barcode>');
});

test('comments, script, style, textarea and title text, and quoted attribute values hold no element', () => {
  const html = [
    '<!-- <quire-barcode type="qrcode" data="in a comment"> -->',
    '<script>const s = "<quire-barcode type=\\"qrcode\\" data=\\"in a script\\">";</script>',
    '<style>/* <quire-chart> */</style><textarea><quire-barcode data="typed"></textarea><title><quire-chart></title>',
    '<div title="<quire-barcode data=in-an-attribute>" data-x=\'<quire-chart>\'>text &lt;quire-barcode data="escaped"&gt;</div>',
    '<pre><code>&lt;quire-barcode&gt;</code></pre><quire-barcodes data="another name"></quire-barcodes>',
    '<quire-barcode data="the one">',
  ].join('\n');
  assert.deepEqual(
    findElements(html, NAMES).map((element) => element.attributes.data),
    ['the one'],
  );
});

test('an unterminated comment, tag or raw-text element ends the scan instead of failing it', () => {
  assert.deepEqual(findElements('<p>x</p><!-- <quire-chart>', NAMES), []);
  assert.deepEqual(findElements('<script>let a = 1 <quire-chart>', NAMES), []);
  assert.deepEqual(findElements('<quire-barcode data="never closed', NAMES).length, 1);
  assert.deepEqual(findElements('a < b and <3 <', NAMES), []);
});

test('character references decode as in the browser; unknown names stay as written', () => {
  assert.equal(decodeReferences('&lt;&gt;&amp;&#39;&#x1F600;&nbsp;&zzz;'), "<>&'😀\u00a0&zzz;");
});

test('the expander splices each drawing in place and names the element, its line and the attribute it refuses', async () => {
  const drawn: string[] = [];
  const registry = new Map<string, ElementDrawer>([
    [
      'quire-barcode',
      async ({ attributes }) => {
        if (attributes.data === 'bad') throw new ElementAttributeError('data', 'is bad');
        drawn.push(attributes.data!);
        return `<svg>${drawn.length}</svg>`;
      },
    ],
  ]);
  assert.equal(await expandQuireElements('<p>no elements</p>', { registry }), '<p>no elements</p>');
  assert.equal(
    await expandQuireElements('<p>a</p><quire-barcode data="1"></quire-barcode> and <quire-barcode data="2"/>.', { registry }),
    '<p>a</p><svg>1</svg> and <svg>2</svg>.',
  );
  await assert.rejects(expandQuireElements('<p>a</p>\n\n<quire-barcode data="bad">', { registry }), (error: unknown) => {
    assert.ok(error instanceof ElementInvalidError);
    assert.deepEqual([error.element, error.line, error.attribute], ['quire-barcode', 3, 'data']);
    assert.equal(error.message, '<quire-barcode> on line 3 of the document, attribute data: is bad.');
    return true;
  });
  const many = '<quire-barcode data="x"></quire-barcode>'.repeat(MAX_ELEMENTS + 1);
  await assert.rejects(expandQuireElements(many, { registry }), /one element too many: a document may have at most 500/);
  // Drawing stops at the ceiling: each drawing is 10 characters longer than its element, so the
  // third one takes the 160 characters of the document past 185 and the fourth is never drawn.
  let calls = 0;
  const big = new Map<string, ElementDrawer>([['quire-barcode', async () => `${++calls}`.padEnd(50, 'y')]]);
  const four = '<quire-barcode data="x"></quire-barcode>'.repeat(4);
  await assert.rejects(expandQuireElements(four, { registry: big, maxLength: 185 }), DrawingsTooLargeError);
  assert.equal(calls, 3);
});
