// POST /v1/image against a real Chromium: each format decoded and checked for its size and a
// known pixel, the viewport, device scale, clip, full page and transparent background, the
// charge, and the refusals.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, startTestServer } from '../helpers/start-app.ts';
import { decodeJpeg, decodePng, webpSize } from '../helpers/image.ts';

// Red 100x50 box at the top left on a blue page; a green band at y 1500 (below the fold).
const PAGE =
  '<style>html, body { margin: 0; background: rgb(0, 0, 255) } #red { width: 100px; height: 50px; background: rgb(255, 0, 0) }' +
  ' #tall { height: 1600px } #green { position: absolute; top: 1500px; left: 0; width: 100%; height: 100px; background: rgb(0, 255, 0) }</style>' +
  '<div id="red"></div><div id="tall"></div><div id="green"></div>';

function near([r, g, b]: number[], [er, eg, eb]: number[], what: string, tolerance = 8): void {
  assert.ok(
    Math.abs(r! - er!) <= tolerance && Math.abs(g! - eg!) <= tolerance && Math.abs(b! - eb!) <= tolerance,
    `${what}: got ${[r, g, b]}, expected ${[er, eg, eb]}`,
  );
}

test('POST /v1/image', async (t) => {
  const server = await startTestServer(t);
  const image = async (options: Record<string, unknown>, html = PAGE) => {
    const response = await server.request('POST', '/v1/image', { html, options: { wait_until: 'load', ...options } });
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.status, 200, Buffer.from(bytes).toString().slice(0, 300));
    return { response, bytes };
  };

  await t.test('a PNG of the viewport, with the page pixels where they belong, charged one document', async () => {
    const before = Number((await server.render({ html: '<p>x</p>', options: { wait_until: 'load' } })).headers.get('x-service-usage'));
    const { response, bytes } = await image({ viewport: { width: 400, height: 300 } });
    assert.equal(response.headers.get('content-type'), 'image/png');
    assert.equal(Number(response.headers.get('x-service-usage')), before + 1);
    const png = decodePng(bytes);
    assert.deepEqual([png.width, png.height], [400, 300]);
    near(png.pixel(10, 10), [255, 0, 0], 'inside the red box');
    near(png.pixel(200, 200), [0, 0, 255], 'the blue page');
  });

  await t.test('device_scale_factor multiplies the pixels', async () => {
    const png = decodePng((await image({ viewport: { width: 200, height: 100, device_scale_factor: 2 } })).bytes);
    assert.deepEqual([png.width, png.height], [400, 200]);
    near(png.pixel(190, 90), [255, 0, 0], 'the red box is 200x100 device pixels');
    near(png.pixel(210, 90), [0, 0, 255], 'right of the red box');
  });

  await t.test('full_page captures below the fold; clip takes a rectangle', async () => {
    const full = decodePng((await image({ viewport: { width: 300, height: 200 }, full_page: true })).bytes);
    assert.equal(full.width, 300);
    assert.ok(full.height >= 1650, `height ${full.height}`);
    near(full.pixel(150, 1550), [0, 255, 0], 'the green band below the fold');
    const clip = decodePng((await image({ viewport: { width: 300, height: 200 }, clip: { x: 50, y: 0, width: 100, height: 40 } })).bytes);
    assert.deepEqual([clip.width, clip.height], [100, 40]);
    near(clip.pixel(10, 10), [255, 0, 0], 'left half of the clip is the red box');
    near(clip.pixel(90, 10), [0, 0, 255], 'right half is the page');
  });

  await t.test('omit_background leaves a page without a background transparent', async () => {
    const png = decodePng((await image({ viewport: { width: 100, height: 100 }, omit_background: true }, '<p style="margin:0">x</p>')).bytes);
    assert.equal(png.pixel(90, 90)[3], 0, 'transparent where nothing is painted');
    const next = decodePng((await image({ viewport: { width: 100, height: 100 } }, '<p style="margin:0">x</p>')).bytes);
    assert.equal(next.pixel(90, 90)[3], 255, 'the next capture on the lane is opaque white again');
    near(next.pixel(90, 90), [255, 255, 255], 'white');
  });

  await t.test('jpeg and webp, with the right Content-Type and size', async () => {
    const jpeg = await image({ type: 'jpeg', quality: 90, viewport: { width: 320, height: 240 } });
    assert.equal(jpeg.response.headers.get('content-type'), 'image/jpeg');
    const decoded = decodeJpeg(jpeg.bytes);
    assert.deepEqual([decoded.width, decoded.height], [320, 240]);
    near(decoded.pixel(20, 20), [255, 0, 0], 'red box in the JPEG', 24);
    const webp = await image({ type: 'webp', viewport: { width: 321, height: 123 } });
    assert.equal(webp.response.headers.get('content-type'), 'image/webp');
    assert.deepEqual(webpSize(webp.bytes), { width: 321, height: 123 });
  });

  await t.test('a PDF render after a capture on the same lane is unaffected by its viewport', async () => {
    await image({ viewport: { width: 100, height: 100 } });
    const response = await server.render({ html: '<p>after</p>', options: { wait_until: 'load' } });
    assert.equal(response.status, 200);
  });

  await t.test('bad capture options are 400 naming the field', async () => {
    for (const [options, field] of [
      [{ type: 'gif' }, 'options.type'],
      [{ type: 'png', quality: 50 }, 'options.quality'],
      [{ full_page: true, clip: { x: 0, y: 0, width: 10, height: 10 } }, 'options.clip'],
      [{ type: 'jpeg', omit_background: true }, 'options.omit_background'],
      [{ viewport: { width: 5000 } }, 'options.viewport.width'],
      [{ format: 'A4' }, 'options.format'],
    ] as const) {
      const error = await errorOf(await server.request('POST', '/v1/image', { html: '<p>x</p>', options }));
      assert.equal(error.status, 400, JSON.stringify(options));
      assert.ok(error.detail.startsWith(field), `${error.detail} names ${field}`);
    }
  });
});
