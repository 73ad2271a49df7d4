// The playground's per-address limit (docs/api.md#playground), in the fast and two-instance
// lanes: past PLAYGROUND_RATE_LIMIT a client gets 429 rate_limited, and behind two instances on one
// PostgreSQL (npm run test:two) the two enforce one limit, not one each.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, startTestServer } from '../helpers/start-app.ts';

const PLAYGROUND = '/v1/playground/pdf';
const quick = (html: string) => ({ html, options: { wait_until: 'load' } });

test('POST /v1/playground/pdf answers 429 rate_limited with Retry-After past the per-address limit', async (t) => {
  const server = await startTestServer(t, { playgroundRateLimit: 2 });
  for (let i = 0; i < 2; i++) assert.equal((await server.requestWithoutKey('POST', PLAYGROUND, quick(`<p>${i}</p>`))).status, 200);
  const rendersBefore = server.app.renderer.stats().rendersTotal;
  const refused = await server.requestWithoutKey('POST', PLAYGROUND, quick('<p>one too many</p>'));
  const retryAfter = Number(refused.headers.get('retry-after'));
  const error = await errorOf(refused);
  assert.equal(error.status, 429);
  assert.equal(error.code, 'rate_limited');
  assert.match(error.detail, /2 renders a minute/);
  assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  assert.equal(refused.headers.get('ratelimit-remaining'), '0');
  assert.equal(server.app.renderer.stats().rendersTotal, rendersBefore, 'a refused call does not render');
  // Keyed renders are not limited by the playground's allowance.
  assert.equal((await server.render(quick('<p>keyed</p>'))).status, 200);
});

test('rapid playground calls from one address get exactly the limit, however many instances answer', async (t) => {
  const server = await startTestServer(t, { playgroundRateLimit: 3 });
  const responses = await Promise.all(Array.from({ length: 8 }, (_, at) => server.requestWithoutKey('POST', PLAYGROUND, quick(`<p>${at}</p>`))));
  const refused = await Promise.all(responses.filter((response) => response.status !== 200).map((response) => errorOf(response)));
  await Promise.all(responses.filter((response) => response.status === 200).map((response) => response.arrayBuffer()));
  assert.equal(responses.length - refused.length, 3, 'three renders in the minute, on whichever instance');
  assert.deepEqual(new Set(refused.map((error) => `${error.status} ${error.code}`)), new Set(['429 rate_limited']));
});
