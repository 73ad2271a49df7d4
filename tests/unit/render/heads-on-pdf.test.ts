// Where a header and footer go on a page Quire did not lay out (render/heads-on-pdf.ts): each box
// along the page's shown edges whatever its /Rotate, the content shrunk and centred between them;
// and the page numbers of parts of a merged document (render/numbering.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { multiply, placementOf, viewOf } from '../../../server/src/render/heads-on-pdf.ts';
import { numberAcross } from '../../../server/src/render/numbering.ts';
import type { Matrix } from '../../../server/src/pdf/stamp-plan.ts';

const apply = ([a, b, c, d, e, f]: Matrix, [x, y]: [number, number]): [number, number] => [a * x + c * y + e, b * x + d * y + f];
const close = (actual: [number, number], expected: [number, number], what: string) =>
  assert.ok(Math.hypot(actual[0] - expected[0], actual[1] - expected[1]) < 1e-6, `${what}: ${actual} is not ${expected}`);

/** Where a point of the page's user space is shown, for a page of width w and height h at the origin turned `rotate`. */
function shown([x, y]: [number, number], w: number, h: number, rotate: number): [number, number] {
  if (rotate === 90) return [y, w - x];
  if (rotate === 180) return [w - x, h - y];
  if (rotate === 270) return [h - y, x];
  return [x, y];
}

// 96 px margins (1in = 72pt), a 48 px header (36pt) and a 24 px footer (18pt).
const margins = { top: 96, right: 96, bottom: 96, left: 96 };
const heights = { header: 48, footer: 24 };

for (const rotate of [0, 90, 180, 270]) {
  test(`a page turned ${rotate}: the boxes sit along its shown top and bottom, its content shrinks between them`, () => {
    const [w, h] = [600, 800];
    const view = viewOf({ x: 0, y: 0, width: w, height: h, rotate });
    const [shownWidth, shownHeight] = rotate % 180 === 0 ? [w, h] : [h, w];
    assert.deepEqual([view.width, view.height], [shownWidth, shownHeight]);
    const placement = placementOf(view, margins, heights, 0.5);
    // A box's bottom-left corner (its origin) and top-right corner (width 100pt, height 36pt), as shown.
    close(shown(apply(placement.header!, [0, 0]), w, h, rotate), [72, shownHeight - 72 - 36], 'header origin');
    close(shown(apply(placement.header!, [100, 36]), w, h, rotate), [172, shownHeight - 72], 'header top-right');
    close(shown(apply(placement.footer!, [0, 0]), w, h, rotate), [72, 72], 'footer origin');
    // The shown page's corners land on a half-size page centred, its bottom on the footer's band (72 + 18).
    const corners: [number, number][] = [
      [0, 0],
      [w, h],
    ];
    const moved = corners.map((corner) => shown(apply(placement.content!, corner), w, h, rotate));
    const xs = moved.map(([x]) => x).sort((a, b) => a - b);
    const ys = moved.map(([, y]) => y).sort((a, b) => a - b);
    close([xs[0]!, xs[1]!], [shownWidth / 4, (shownWidth * 3) / 4], 'content centred, half as wide');
    close([ys[0]!, ys[1]!], [90, 90 + shownHeight / 2], 'content above the footer band, half as tall');
  });
}

test('a crop box away from the origin moves the boxes with it', () => {
  const view = viewOf({ x: 50, y: 30, width: 600, height: 800, rotate: 0 });
  const placement = placementOf(view, margins, heights, 1);
  close(apply(placement.footer!, [0, 0]), [50 + 72, 30 + 72], 'footer origin');
  assert.equal(placement.content, undefined, 'no shrink, no content matrix');
});

test('multiply takes a point through the first matrix, then the second', () => {
  const scale: Matrix = [2, 0, 0, 2, 0, 0];
  const shift: Matrix = [1, 0, 0, 1, 10, 0];
  close(apply(multiply(scale, shift), [1, 1]), [12, 2], 'scale then shift');
  close(apply(multiply(shift, scale), [1, 1]), [22, 2], 'shift then scale');
});

test('numberAcross numbers each part’s kept pages after the parts before it', () => {
  const [first, second, third] = numberAcross([
    { count: 2, kept: [0, 1] },
    { count: 3, kept: [2, 0] },
    { count: 1, kept: [0] },
  ]);
  assert.deepEqual(first, { pageNumbers: [1, 2], total: 5 });
  // Its page 3 comes first, then its page 1; page 2 is dropped.
  assert.deepEqual(second!.pageNumbers[2], 3);
  assert.deepEqual(second!.pageNumbers[0], 4);
  assert.deepEqual(third, { pageNumbers: [5], total: 5 });
});
