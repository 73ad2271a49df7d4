// What a receipt says, as a person reads it (issue #30 items 6 and 7): no internal names (Quire's
// own r<hex>.render.invalid origin is "the document", a template asset its own name), proper
// plurals, no false warnings (the page's own document request, the fallback fonts of Quire's own
// Markdown stylesheet), and no size for a request the guard refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/start-app.ts';
import { startFixtureServer } from '../helpers/fixture-server.ts';

interface Receipt {
  requests: { url: string; bytes: number | null; blocked: boolean; status: number | null }[];
  blocked: { url: string }[];
  console: { text: string; url?: string }[];
  warnings: string[];
}

async function receiptOf(server: TestServer, body: unknown): Promise<Receipt> {
  const response = await server.render(body);
  assert.equal(response.status, 200, await response.clone().text());
  const read = await server.request('GET', response.headers.get('x-render-receipt')!);
  return (await read.json()) as Receipt;
}

test('a receipt names what the caller gave, counts in words, and warns only of what went wrong', async (t) => {
  const site = await startFixtureServer({ '/page': '<h1>From the site</h1>' });
  t.after(() => site.close());
  const server = await startTestServer(t, { allowHosts: [`127.0.0.1:${site.port}`] });

  await t.test('the document and its own files by the names the caller wrote; a refused request has no size', async () => {
    const receipt = await receiptOf(server, {
      html: '<h1>Hi</h1><img src="missing%20logo.png"><img src="http://10.20.30.40/a.png"><img src="http://10.20.30.40/b.png"><script>console.error("boom"); throw new Error("bad")</script>',
      options: { receipt: true },
    });
    const text = JSON.stringify(receipt);
    assert.ok(!text.includes('render.invalid'), `no internal host: ${text}`);
    assert.deepEqual(
      receipt.console.map((line) => line.url),
      ['the document', 'the document'],
    );
    const asset = receipt.requests.find((request) => !request.blocked);
    assert.deepEqual([asset?.url, asset?.status], ['missing logo.png', 404]);
    const refused = receipt.requests.filter((request) => request.blocked);
    assert.deepEqual(
      refused.map((request) => [request.url, request.bytes]),
      [
        ['http://10.20.30.40/a.png', null],
        ['http://10.20.30.40/b.png', null],
      ],
    );
    assert.ok(receipt.warnings.includes('1 request failed: an HTTP error or a load error, see Requests'), JSON.stringify(receipt.warnings));
    assert.ok(receipt.warnings.includes('2 requests were refused by the network guard, see Blocked'), JSON.stringify(receipt.warnings));
    assert.ok(!text.includes('(s)'), 'plurals are words');
  });

  await t.test('a url render whose only request is the page warns of nothing', async () => {
    for (const wait_until of ['networkidle0', 'load'] as const) {
      const receipt = await receiptOf(server, { url: `${site.url}/page`, options: { receipt: true, wait_until } });
      assert.equal(receipt.requests.length, 1);
      assert.deepEqual(receipt.warnings, [], wait_until);
    }
  });

  await t.test('Quire’s own Markdown stylesheet draws a footnote’s arrow without a fallback warning', async () => {
    const receipt = await receiptOf(server, { markdown: 'A note[^1] → and a task:\n\n- [x] done\n\n[^1]: The footnote.', options: { receipt: true } });
    assert.deepEqual(receipt.warnings, []);
  });
});
