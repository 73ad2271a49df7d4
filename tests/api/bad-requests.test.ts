// Bad requests to POST /v1/pdf (and around it): each answers its docs/api.md#errors status and code
// with a `{detail, code}` body that names the field, never a stack, never a hang; the server
// renders fine afterwards.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from '../helpers/start-app.ts';
import { fastLane } from '../helpers/fake-page-source.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { type BadRequest, send } from '../helpers/bad-requests/bad-request.ts';
import { PDF_CASES } from '../helpers/bad-requests/pdf-input-cases.ts';
import { BODY_AND_OPTION_CASES } from '../helpers/bad-requests/body-and-option-cases.ts';
import { POST_PROCESSING_CASES } from '../helpers/bad-requests/post-processing-cases.ts';
import { OTHER_ROUTE_CASES } from '../helpers/bad-requests/other-route-cases.ts';

const CASES: BadRequest[] = [...PDF_CASES, ...BODY_AND_OPTION_CASES, ...POST_PROCESSING_CASES, ...OTHER_ROUTE_CASES];

test('bad requests answer their contract status and code with a sentence naming the field', { timeout: 180_000 }, async (t) => {
  assert.ok(CASES.length >= 40, `only ${CASES.length} cases`);
  const server = await startTestServer(t);

  for (const bad of CASES) {
    const skip = fastLane() && bad.needsChromium ? 'needs a real Chromium (fast lane)' : false;
    await t.test(`${bad.name} answers ${bad.status} ${bad.code}`, { skip }, async () => {
      const response = await send(server, bad);
      const text = await response.text();
      assert.equal(response.status, bad.status, `status for ${bad.name}: ${text.slice(0, 300)}`);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.ok(response.headers.get('x-request-id'), 'X-Request-Id is missing');
      const body = JSON.parse(text) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body).sort(), ['code', 'detail'], `body is exactly {detail, code}: ${text.slice(0, 300)}`);
      assert.equal(body.code, bad.code, `code for ${bad.name}: ${String(body.detail)}`);
      const detail = body.detail as string;
      assert.equal(typeof detail, 'string');
      assert.match(detail, /\w+ \w+/, 'detail is a sentence of several words');
      if (bad.names) assert.ok(detail.includes(bad.names), `detail "${detail}" should name ${bad.names}`);
      assert.doesNotMatch(text, /\n\s+at |\.ts:\d+|node_modules|Error:/, 'no stack trace in the body');
      if (bad.status === 405) assert.equal(response.headers.get('allow'), 'POST');
    });
  }

  await t.test('the server still renders after every bad request', async () => {
    const response = await server.render({ html: '<h1>Still standing</h1>', options: { wait_until: 'load' } });
    assert.equal(response.status, 200);
    const pdf = await inspectPdf(await response.arrayBuffer());
    assert.equal(pdf.pages.length, 1);
    // The fast lane's fake page source prints a blank page: only a real Chromium prints the text.
    if (!fastLane()) assert.match(pdf.text, /Still standing/);
  });
});

test('bad requests in parallel are all answered and leave the server rendering', { timeout: 60_000 }, async (t) => {
  const server = await startTestServer(t);
  const small = CASES.filter((bad) => bad.status !== 413 && !(fastLane() && bad.needsChromium));
  const responses = await Promise.all(
    small.map((bad) => send(server, bad).then(async (response) => ({ bad, status: response.status, body: await response.text() }))),
  );
  for (const { bad, status, body } of responses) assert.equal(status, bad.status, `${bad.name}: ${body.slice(0, 200)}`);
  const response = await server.render({ html: '<p>after the storm</p>', options: { wait_until: 'load' } });
  assert.equal(response.status, 200);
  const pdf = await inspectPdf(await response.arrayBuffer());
  assert.equal(pdf.pages.length, 1);
  if (!fastLane()) assert.match(pdf.text, /after the storm/);
});
