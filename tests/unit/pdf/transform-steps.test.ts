// pdf/transform: the page arithmetic of the page steps, qpdf's page lists, the JPEG quality curve
// and the step schema's refusals, without running any tool.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namedPages, pagesAfter } from '../../../server/src/pdf/transform/page-order.ts';
import { qpdfPageList } from '../../../server/src/pdf/transform/qpdf-file.ts';
import { qFactorOf } from '../../../server/src/pdf/transform/compress.ts';
import { transformStepsSchema } from '../../../server/src/pdf/transform/steps.ts';
import { PdfStepError } from '../../../server/src/pdf/pdf-errors.ts';

test('page steps work out the pages in order', () => {
  assert.deepEqual(pagesAfter({ op: 'select', pages: '3, 1-2, 1' }, 4, 'steps[0]'), [3, 1, 2, 1]);
  assert.deepEqual(pagesAfter({ op: 'delete', pages: '2-3' }, 4, 'steps[0]'), [1, 4]);
  assert.deepEqual(pagesAfter({ op: 'reorder', order: '4, 1-3' }, 4, 'steps[0]'), [4, 1, 2, 3]);
  assert.deepEqual(pagesAfter({ op: 'duplicate', pages: '2', copies: 2 }, 3, 'steps[0]'), [1, 2, 2, 2, 3]);
  assert.deepEqual(namedPages('2-', 4, 'x'), [2, 3, 4]);
});

test('page steps refuse what the document cannot do, naming the step', () => {
  assert.throws(
    () => pagesAfter({ op: 'delete', pages: '1-' }, 3, 'steps[2]'),
    (error: unknown) => error instanceof PdfStepError && /steps\[2\]\.pages would take out every page/.test(error.message),
  );
  assert.throws(() => pagesAfter({ op: 'reorder', order: '1, 1, 2' }, 3, 'steps[0]'), /page 3 is missing/);
  assert.throws(() => pagesAfter({ op: 'reorder', order: '2, 1' }, 3, 'steps[0]'), /each of the 3 pages once/);
  assert.throws(() => namedPages('5', 4, 'steps[1].pages'), /steps\[1\]\.pages names page 5, but the document has 4 pages/);
});

test('qpdf page lists fold runs and keep repeats', () => {
  assert.equal(qpdfPageList([1, 2, 3, 4, 7, 7, 9, 10]), '1-4,7,7,9-10');
  assert.equal(qpdfPageList([3, 2, 1]), '3,2,1');
});

test('JPEG quality follows libjpeg’s scaling curve', () => {
  assert.equal(qFactorOf(50), 1);
  assert.equal(qFactorOf(75), 0.5);
  assert.equal(qFactorOf(90), 0.2);
  assert.equal(qFactorOf(25), 2);
  assert.equal(qFactorOf(100), 0.01);
});

test('the step schema fills defaults and refuses a second split, a split without a rule, and a bad part name', () => {
  const [compress] = transformStepsSchema.parse([{ op: 'compress' }]);
  assert.deepEqual(compress, { op: 'compress', mode: 'images', dpi: 150, quality: 75 });
  assert.equal(
    transformStepsSchema.safeParse([
      { op: 'split', every: 1 },
      { op: 'split', every: 2 },
    ]).success,
    false,
  );
  assert.equal(transformStepsSchema.safeParse([{ op: 'split' }]).success, false);
  assert.equal(transformStepsSchema.safeParse([{ op: 'split', every: 1, by: 'bookmarks' }]).success, false);
  assert.equal(transformStepsSchema.safeParse([{ op: 'split', every: 1, names: ['../etc/passwd'] }]).success, false);
  assert.equal(transformStepsSchema.safeParse([{ op: 'rotate', angle: 45 }]).success, false);
  assert.equal(transformStepsSchema.safeParse([]).success, false);
});
