import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../helpers/start-app.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { PAPER_FORMATS, PAPER_SIZE_POINTS } from '../../server/src/render/pdf-options.ts';

test('every paper format has its size in points, portrait and landscape', async (t) => {
  const server = await startTestServer(t);
  for (const format of PAPER_FORMATS) {
    for (const landscape of [false, true]) {
      const response = await server.render({ html: `<p>${format}</p>`, options: { format, landscape, wait_until: 'load' } });
      assert.equal(response.status, 200, `${format} landscape=${landscape}`);
      assert.equal(response.headers.get('content-type'), 'application/pdf');
      const pdf = await inspectPdf(await response.arrayBuffer());
      const expected = PAPER_SIZE_POINTS[format];
      const [width, height] = landscape ? [expected.height, expected.width] : [expected.width, expected.height];
      assert.equal(pdf.pages.length, 1);
      assert.ok(Math.abs(pdf.pages[0]!.width - width) < 1, `${format} width ${pdf.pages[0]!.width} != ${width}`);
      assert.ok(Math.abs(pdf.pages[0]!.height - height) < 1, `${format} height ${pdf.pages[0]!.height} != ${height}`);
      assert.match(pdf.text, new RegExp(format));
    }
  }
});

test('the default page is A4 portrait', async (t) => {
  const server = await startTestServer(t);
  const pdf = await inspectPdf(await (await server.render({ html: '<p>default</p>' })).arrayBuffer());
  assert.ok(Math.abs(pdf.pages[0]!.width - 595.28) < 1);
  assert.ok(Math.abs(pdf.pages[0]!.height - 841.89) < 1);
});
