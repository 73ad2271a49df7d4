// The playground's forms take the page options' defaults, bounds and choices from the server's
// /openapi.json (ui/src/lib/pdf-options.ts optionSpecFrom): the document the server serves must
// give every one of them, with the values the request schemas enforce.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { optionSpecFrom } from '../../ui/src/lib/pdf-options.ts';
import { startTestServer } from '../helpers/start-app.ts';

test('/openapi.json gives the forms every page option default, bound and choice', async (t) => {
  const server = await startTestServer(t);
  const response = await server.requestWithoutKey('GET', '/openapi.json');
  assert.equal(response.status, 200);
  const spec = optionSpecFrom(await response.json());
  assert.deepEqual(spec.defaults, {
    format: 'A4',
    landscape: false,
    margin: '1cm',
    print_background: true,
    scale: 1,
    prefer_css_page_size: false,
    media: 'print',
    timeout_ms: 30_000,
    wait_until: 'networkidle0',
    wait_ms: 0,
    outline: false,
  });
  assert.deepEqual(spec.bounds, {
    scale: { min: 0.1, max: 2, step: 0.1 },
    timeout_ms: { min: 1000, max: 60_000, step: 1000 },
    wait_ms: { min: 0, max: 5000, step: 100 },
  });
  assert.deepEqual(spec.formats, ['A4', 'A3', 'A5', 'Letter', 'Legal', 'Tabloid']);
  assert.deepEqual(spec.waitUntil, ['load', 'domcontentloaded', 'networkidle0', 'networkidle2']);
  assert.deepEqual(spec.watermark.defaults, { opacity: 0.2, rotate: 45, font_size: 64, color: '#888888', position: 'center', layer: 'over' });
  assert.deepEqual(spec.watermark.bounds, {
    opacity: { min: 0, max: 1, step: 0.05 },
    rotate: { min: -360, max: 360, step: 1 },
    font_size: { min: 4, max: 400, step: 1 },
  });
  assert.equal(spec.watermark.positions.length, 9);
  assert.deepEqual(spec.pdfALevels, ['PDF/A-1b', 'PDF/A-2b', 'PDF/A-2u', 'PDF/A-2a', 'PDF/A-3b', 'PDF/A-3u', 'PDF/A-3a']);
  assert.deepEqual(spec.sign, { levels: ['B-B', 'B-T'], defaultLevel: 'B-B' });
});

test('a document without the page options is refused by name, not read as undefined defaults', () => {
  assert.throws(() => optionSpecFrom({ paths: {} }), /does not describe the page option options/);
});
