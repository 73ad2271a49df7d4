// The content-stream reader shared by the image placements (content-placements.ts) and the PDF/UA
// scan and artifact wrapping (ua/): operators with their operand ranges, strings and inline image
// data stepped over, untagged painting wrapped as artifacts without splitting a text object.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentOps, operandsOf } from '../../../server/src/pdf/content-ops.ts';
import { placementsIn } from '../../../server/src/pdf/content-placements.ts';
import { markArtifacts } from '../../../server/src/pdf/ua/artifact-marks.ts';
import { scanMarkedContent } from '../../../server/src/pdf/ua/marked-content.ts';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

test('operators, with strings, dictionaries and inline image data read as operands', () => {
  const content = bytes('q 2 0 0 2 10 20 cm /P <</MCID 3>> BDC BT (a\\) Tj) Tj [(x) -3 (y)] TJ ET EMC BI /W 4 /H 2 ID \x00EI\x01 EI Q /Im1 Do');
  const ops = contentOps(content);
  assert.deepEqual(
    ops.map((op) => op.op),
    ['q', 'cm', 'BDC', 'BT', 'Tj', 'TJ', 'ET', 'EMC', 'EI', 'Q', 'Do'],
  );
  assert.equal(operandsOf(content, ops[2]!).trim(), '/P <</MCID 3>>');
  assert.equal(operandsOf(content, ops[4]!).trim(), '(a\\) Tj)', 'a string holding ") Tj" stays one operand');
});

test('placements: Do and inline images with the matrix in force', () => {
  const placements = placementsIn(bytes('q 2 0 0 2 10 20 cm /Im1 Do BI /W 4 /H 2 ID \x00\x01 EI Q /Im2 Do'));
  assert.deepEqual(placements, [
    { kind: 'xobject', name: 'Im1', matrix: [2, 0, 0, 2, 10, 20] },
    { kind: 'inline', width: 4, height: 2, matrix: [2, 0, 0, 2, 10, 20] },
    { kind: 'xobject', name: 'Im2', matrix: [1, 0, 0, 1, 0, 0] },
  ]);
});

test('untagged painting is wrapped as artifacts up to the next marked content; a figure sequence can be retagged', () => {
  const content = bytes('/P <</MCID 0>> BDC BT (a) Tj ET EMC q 0 0 5 5 re W n BT (header) Tj ET 0 0 9 9 re f Q /Figure <</MCID 1>> BDC /Im1 Do EMC');
  assert.equal(scanMarkedContent(content).untagged, 2);
  const marked = markArtifacts(content, new Set([1]))!;
  const text = Buffer.from(marked).toString('latin1');
  assert.match(text, /W n \/Artifact BMC\nBT \(header\) Tj ET 0 0 9 9 re f Q \nEMC\n\/Artifact BMC \/Im1 Do EMC$/);
  const after = scanMarkedContent(marked);
  assert.deepEqual([after.untagged, after.artifactInTagged, after.taggedInArtifact, after.sequences.length], [0, 0, 0, 1]);
});

test('a run that would have to end inside a text object is left as it is', () => {
  const content = bytes('BT (untagged) Tj /P <</MCID 0>> BDC (tagged) Tj EMC ET');
  assert.equal(markArtifacts(content), undefined);
});
