import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectPages } from '../../server/src/pdf/page-list.ts';
import { metadataXmp } from '../../server/src/pdf/xmp.ts';

test('selectPages keeps the order given, repeats included, and runs open ranges to the end', () => {
  assert.deepEqual(selectPages('3, 1-2', 5), { indexes: [2, 0, 1], missing: undefined });
  assert.deepEqual(selectPages('4-', 5), { indexes: [3, 4], missing: undefined });
  assert.deepEqual(selectPages('2, 2', 3), { indexes: [1, 1], missing: undefined });
});

test('selectPages names the first page past the end and still selects the pages that exist', () => {
  assert.deepEqual(selectPages('2-9', 3), { indexes: [1, 2], missing: 4 });
  assert.deepEqual(selectPages('7, 1', 3), { indexes: [0], missing: 7 });
  assert.deepEqual(selectPages('5-', 3), { indexes: [], missing: 5 });
});

test('metadataXmp escapes markup and leaves out what is empty', () => {
  const xmp = metadataXmp({ title: 'A <b> & "c"', keywords: ['x', 'y'], created: new Date(0), modified: new Date(0) });
  assert.match(xmp, /A &#60;b&#62; &#38; &#34;c&#34;/);
  assert.match(xmp, /<rdf:Bag><rdf:li>x<\/rdf:li><rdf:li>y<\/rdf:li><\/rdf:Bag>/);
  assert.doesNotMatch(xmp, /dc:creator|CreatorTool/);
  assert.match(xmp, /^<\?xpacket begin="\uFEFF"/);
});
