// Render receipts (docs/api.md#render-receipts) against a real Chromium: what the page loaded and
// was refused (with the guard's reason), its console errors, the fonts in the PDF, masked query
// secrets; who may read a receipt; the key's receipts setting; batch items and the playground.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/start-app.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';

// A 1x1 PNG.
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

interface Receipt {
  receipt_version: number;
  id: string;
  key_id: string | null;
  kind: string;
  status: string;
  error: { code: string } | null;
  document_id: string | null;
  source: { type: string; url?: string };
  options: Record<string, unknown>;
  render_path: { clock: string; mode: string; engine: string } | null;
  timings_ms: Record<string, number | null>;
  requests: { method: string; url: string; status: number | null; bytes: number; blocked: boolean; source: string }[];
  blocked: { url: string; reason: string }[];
  console: { kind: string; text: string }[];
  fonts: { name: string | null; subset: boolean; type: string; embedded: boolean; named_by_page: boolean | null }[];
  pages: { count: number; width_pt: number; height_pt: number } | null;
  warnings: string[];
}

async function startWithFixture(t: test.TestContext): Promise<{ server: TestServer; fixture: FixtureServer }> {
  const fixture = await startFixtureServer({
    '/logo.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL),
  });
  t.after(() => fixture.close());
  const server = await startTestServer(t, { allowHosts: [`127.0.0.1:${fixture.port}`] });
  return { server, fixture };
}

async function receiptOf(server: TestServer, response: Response): Promise<Receipt> {
  const path = response.headers.get('x-render-receipt');
  assert.match(path ?? '', /^\/v1\/receipts\/rcp_[A-Za-z0-9]+$/, 'X-Render-Receipt names the receipt');
  const read = await server.request('GET', path!);
  assert.equal(read.status, 200);
  return (await read.json()) as Receipt;
}

test('a receipt lists every request with query secrets masked, the blocked one with its reason, console errors, fonts and pages', async (t) => {
  const { server, fixture } = await startWithFixture(t);
  const html = `<html><body style="font-family: 'Liberation Serif'">
    <h1>Invoice ✓</h1>
    <img src="${fixture.url}/logo.png?token=s3cret&size=2">
    <img src="http://10.1.2.3/private.png">
    <script>console.error('boom', 1)</script>
    <script>setTimeout(() => { throw new Error('uncaught kaboom'); }, 0)</script>
  </body></html>`;
  const response = await server.render({ html, options: { receipt: true } });
  assert.equal(response.status, 200);
  const receipt = await receiptOf(server, response);
  assert.equal(receipt.receipt_version, 1);
  assert.equal(receipt.key_id, server.key.id);
  assert.equal(receipt.kind, 'pdf');
  assert.equal(receipt.status, 'succeeded');
  assert.equal(receipt.options.receipt, true);
  assert.equal(receipt.options.format, 'A4', 'options in force carry the defaults');
  assert.equal(receipt.options.wait_clock, receipt.render_path?.clock, 'wait_clock in force is the clock that ran');
  assert.ok(receipt.render_path?.engine, 'the engine is named');
  assert.match(receipt.render_path?.mode ?? '', /^(virtual-begin-frame|virtual-real-frames|real)$/, 'the render path in force is named');

  const logo = receipt.requests.find((request) => request.url.includes('/logo.png'));
  assert.ok(logo, `the logo request is listed: ${JSON.stringify(receipt.requests)}`);
  assert.equal(logo.url, `${fixture.url}/logo.png?token=***&size=2`, 'the token is masked, other parameters kept');
  assert.equal(logo.status, 200);
  assert.ok(logo.bytes > 0);
  assert.ok(!JSON.stringify(receipt).includes('s3cret'), 'the secret appears nowhere');

  const refused = receipt.requests.find((request) => request.url.startsWith('http://10.1.2.3/'));
  assert.equal(refused?.blocked, true);
  assert.equal(receipt.blocked.length, 1);
  assert.equal(receipt.blocked[0]!.url, 'http://10.1.2.3/private.png');
  assert.match(receipt.blocked[0]!.reason, /10\.1\.2\.3|private/);

  assert.ok(
    receipt.console.some((message) => message.kind === 'console' && message.text === 'boom 1'),
    JSON.stringify(receipt.console),
  );
  assert.ok(receipt.console.some((message) => message.kind === 'exception' && message.text.includes('uncaught kaboom')));

  const serif = receipt.fonts.find((font) => font.name?.startsWith('LiberationSerif'));
  assert.ok(serif, `Liberation Serif is in the PDF: ${JSON.stringify(receipt.fonts)}`);
  assert.equal(serif.embedded, true);
  assert.equal(serif.subset, true);
  assert.equal(serif.named_by_page, true);
  // ✓ is not in Liberation Serif: another font drew it (a named one, or a colour font as Type 3), and the receipt says so.
  assert.ok(
    receipt.warnings.some((warning) => /is in the PDF but no style names it|unnamed Type 3 font/.test(warning)),
    `a fallback is reported: ${JSON.stringify({ fonts: receipt.fonts, warnings: receipt.warnings })}`,
  );
  assert.equal(receipt.pages?.count, 1);
  assert.ok(Math.abs(receipt.pages!.width_pt - 595.3) < 1, `A4 is about 595 points wide: ${receipt.pages!.width_pt}`);
  assert.ok((receipt.timings_ms.total ?? 0) > 0 && receipt.timings_ms.print !== null, JSON.stringify(receipt.timings_ms));
  assert.ok(receipt.warnings.some((warning) => warning.includes('refused by the network guard')));
});

test('a receipt is read by its own key and the admin only (its clock and options agree); others, unknown ids and no key are refused', async (t) => {
  const server = await startTestServer(t);
  const response = await server.render({ html: '<p>mine</p>', options: { receipt: true, wait_until: 'load' } });
  const path = response.headers.get('x-render-receipt')!;
  const id = path.split('/').at(-1)!;
  const other = await server.createKey('starter');
  const foreign = await server.request('GET', path, undefined, { authorization: `Bearer ${other.key}` });
  assert.equal(foreign.status, 404);
  assert.equal(((await foreign.json()) as { code: string }).code, 'receipt_not_found');
  assert.equal((await server.request('GET', '/v1/receipts/rcp_doesnotexist0000')).status, 404);
  assert.equal((await server.requestWithoutKey('GET', path)).status, 401);
  assert.equal((await server.requestWithoutKey('GET', `/v1/playground/receipts/${id}`)).status, 404, 'a keyed receipt is not a playground one');
  const admin = await server.admin('GET', `/admin/v1/receipts/${id}`);
  assert.equal(admin.status, 200);
  const receipt = (await admin.json()) as Receipt;
  assert.equal(receipt.id, id);
  // wait_until load runs on the wall clock whatever wait_clock says: the options in force say so too (issue 39).
  assert.equal(receipt.render_path?.clock, 'real');
  assert.equal(receipt.options.wait_clock, 'real', 'the options in force name the clock that ran');
});

test('the key’s receipts setting: stored renders by default, every render with all, none with off; a failed render names its receipt', async (t) => {
  const server = await startTestServer(t);
  const plain = await server.render({ html: '<p>plain</p>', options: { wait_until: 'load' } });
  assert.equal(plain.headers.get('x-render-receipt'), null, 'not stored, not asked: no receipt by default');
  const stored = await server.render({ html: '<p>stored</p>', store: true, options: { wait_until: 'load' } });
  const storedReceipt = await receiptOf(server, stored);
  assert.equal(storedReceipt.document_id, stored.headers.get('x-document-id'));

  const changed = await server.admin('PATCH', `/admin/v1/keys/${server.key.id}`, { receipts: 'off' });
  assert.equal(((await changed.json()) as { receipts: string }).receipts, 'off');
  const off = await server.render({ html: '<p>stored</p>', store: true, options: { wait_until: 'load' } });
  assert.equal(off.headers.get('x-render-receipt'), null);
  assert.equal((await server.admin('PATCH', `/admin/v1/keys/${server.key.id}`, { receipts: 'loud' })).status, 400);

  await server.admin('PATCH', `/admin/v1/keys/${server.key.id}`, { receipts: 'all' });
  const failed = await server.render({ html: '<p>never</p>', options: { wait_for: '#never', timeout_ms: 1000, wait_until: 'load' } });
  assert.equal(failed.status, 504);
  const receipt = await receiptOf(server, failed);
  assert.equal(receipt.status, 'failed');
  assert.equal(receipt.error?.code, 'render_timeout');
  assert.ok(
    receipt.warnings.some((warning) => warning.includes('#never never matched')),
    JSON.stringify(receipt.warnings),
  );
});

test('batch items carry their receipts; a blocked url item’s receipt says it failed', async (t) => {
  const server = await startTestServer(t);
  const response = await server.request('POST', '/v1/pdf/batch', {
    options: { wait_until: 'load' },
    requests: [{ html: '<p>one</p>' }, { url: 'http://10.9.9.9/report' }],
  });
  assert.equal(response.status, 200);
  const batch = (await response.json()) as { results: { status: string; receipt?: string; document_id?: string }[] };
  const [ok, blocked] = batch.results;
  assert.equal(ok?.status, 'succeeded');
  assert.equal(blocked?.status, 'failed');
  const first = (await (await server.request('GET', ok!.receipt!)).json()) as Receipt & { batch_index: number };
  assert.equal(first.kind, 'batch_item');
  assert.equal(first.batch_index, 0);
  assert.equal(first.document_id, ok!.document_id);
  const second = (await (await server.request('GET', blocked!.receipt!)).json()) as Receipt;
  assert.equal(second.status, 'failed');
  assert.equal(second.error?.code, 'url_blocked');
});

test('a playground render’s receipt is read with its id alone, and appears in the activity', async (t) => {
  const server = await startTestServer(t);
  const response = await server.requestWithoutKey('POST', '/v1/playground/pdf', { html: '<p>play</p>', options: { receipt: true, wait_until: 'load' } });
  assert.equal(response.status, 200);
  const path = response.headers.get('x-render-receipt')!;
  assert.match(path, /^\/v1\/playground\/receipts\/rcp_/);
  const read = await server.requestWithoutKey('GET', path);
  assert.equal(read.status, 200);
  const receipt = (await read.json()) as Receipt;
  assert.equal(receipt.kind, 'playground');
  assert.equal(receipt.key_id, null);
  assert.equal((await server.request('GET', `/v1/receipts/${receipt.id}`)).status, 404, 'not a key’s receipt');
  const activity = (await (await server.admin('GET', '/admin/v1/activity')).json()) as {
    recent: { receipt_id: string | null; kind: string }[];
    minutes: unknown[];
  };
  assert.equal(activity.minutes.length, 60);
  assert.ok(activity.recent.some((render) => render.receipt_id === receipt.id && render.kind === 'playground'));
});

test('a playground PDF/A render’s receipt records its steps, with the conformance report its header gave (issue 39, item 11)', async (t) => {
  const server = await startTestServer(t);
  const options = { receipt: true, wait_until: 'load', pdf_a: 'PDF/A-3b' };
  const response = await server.requestWithoutKey('POST', '/v1/playground/pdf', { html: '<p>archived</p>', options });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('x-pdf-conformance') ?? '', /^PDF\/A-3b; rules=\d+; failed=0/);
  const receipt = (await (await server.requestWithoutKey('GET', response.headers.get('x-render-receipt')!)).json()) as Receipt & {
    steps: { step: string; ms: number; bytes_before: number; bytes_after: number; report: { level?: string; passed?: boolean } | null }[];
  };
  assert.deepEqual(
    receipt.steps.map((step) => [step.step, step.report?.level, step.report?.passed]),
    [['pdf_a', 'PDF/A-3b', true]],
  );
  assert.ok(receipt.steps[0]!.bytes_after > 0 && receipt.steps[0]!.ms >= 0);
});

test('a header cut off by its fixed height is a warning of the receipt; one that fits is not', async (t) => {
  const server = await startTestServer(t);
  const tall = '<div style="height:60px">Letterhead</div>';
  const cut = await server.render({
    html: '<p>body</p>',
    store: true,
    options: { wait_until: 'load', header: { html: tall, height: '20px' }, footer: 'Page {{page}}' },
  });
  assert.equal(cut.status, 200);
  const receipt = await receiptOf(server, cut);
  assert.deepEqual(
    receipt.warnings.filter((warning) => warning.includes('cut off')),
    ['options.header is cut off: its content is 60px tall in a box of 20px (make options.header.height larger, or leave it out to fit the content)'],
  );
  const fits = await server.render({ html: '<p>body</p>', store: true, options: { wait_until: 'load', header: tall, footer: 'Page {{page}}' } });
  assert.ok(!(await receiptOf(server, fits)).warnings.some((warning) => warning.includes('cut off')));
});
