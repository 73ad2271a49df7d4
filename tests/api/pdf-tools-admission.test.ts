// The PDF tools' admission (issue 39, item 8): four calls at once; the admin window's reads (a
// screen of thumbnails, Inspect) wait their turn instead of failing with 503 renderer_busy.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../helpers/start-app.ts';

test('twelve admin thumbnails and inspections asked at once all answer 200 (none 503 renderer_busy)', async (t) => {
  const server = await startTestServer(t);
  const ids: string[] = [];
  for (let i = 1; i <= 6; i++) {
    const html = `<h1>Document ${i}</h1><p style="break-before: page">Page two</p><p style="break-before: page">Page three</p>`;
    const rendered = await server.render({ html, options: { wait_until: 'load' }, store: true });
    ids.push(rendered.headers.get('x-document-id')!);
  }
  // Distinct widths: no answer comes from the thumbnail cache, each one is drawn.
  const answers = await Promise.all([
    ...ids.map((id, i) => server.admin('GET', `/admin/v1/documents/${id}/thumbnail?width=${300 + i}`)),
    ...ids.map((id) => server.admin('GET', `/admin/v1/documents/${id}/inspect`)),
  ]);
  const statuses = await Promise.all(answers.map(async (answer) => `${answer.status}${answer.ok ? '' : ` ${await answer.text()}`}`));
  assert.deepEqual(statuses, Array(12).fill('200'));
});
