// A page's clock and the PDF's dates are the wall clock's time of each render, on a server that
// has run a while (issue 39 item 1): a lane's virtual clock used to start where the lane was opened
// (at the browser's launch) and gain only the virtual time its renders spent. Checked in Date.now(),
// in performance.timeOrigin + performance.now() and in the PDF's CreationDate (pdfinfo), on the
// default clock (networkidle0, virtual) and the wall clock, and in a PDF/A file's XMP CreateDate.
// Also: the Creator a PDF carries (issue 39 item 3). Run on every engine by tests/engines/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/start-app.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { pageTexts, pdfInfo } from '../helpers/pdf-cli.ts';
import { pdfaIdOf } from '../helpers/pdf-a-tools.ts';

/** How far the page's clock may stand from the wall clock's time of its render. */
const WITHIN_MS = 1000;
/** The server's age at which a clock that started with the browser is visibly wrong (issue 39). */
const SERVER_AGE_MS = 5000;

const CLOCK_PAGE =
  '<p id="t"></p><script>document.getElementById("t").textContent = "date " + Date.now() + " perf " + Math.round(performance.timeOrigin + performance.now())</script>';

interface Rendered {
  /** Wall clock when the request was sent and when its answer came. */
  sent: number;
  answered: number;
  pdf: Uint8Array;
}

async function render(server: TestServer, options: Record<string, unknown>, html = CLOCK_PAGE): Promise<Rendered> {
  const sent = Date.now();
  const response = await server.render({ html, options });
  assert.equal(response.status, 200, await response.clone().text());
  const pdf = new Uint8Array(await response.arrayBuffer());
  return { sent, answered: Date.now(), pdf };
}

/** Asserts a time the page or the PDF gave lies within the render's time (WITHIN_MS either side; `resolution` for whole seconds). */
function assertDuring(what: string, at: number, rendered: Rendered, resolution = 0): void {
  const from = rendered.sent - WITHIN_MS - resolution;
  const to = rendered.answered + WITHIN_MS;
  assert.ok(
    at >= from && at <= to,
    `${what} is ${new Date(at).toISOString()}, ${Math.round((at - rendered.sent) / 1000)} s from the render's start at ${new Date(rendered.sent).toISOString()} (answered ${rendered.answered - rendered.sent} ms later)`,
  );
}

function assertPageClock(rendered: Rendered): void {
  const text = pageTexts(rendered.pdf).join('\n');
  const [, date, perf] = /date (\d+) perf (\d+)/.exec(text) ?? [];
  assert.ok(date && perf, `the page wrote its clock: ${text}`);
  assertDuring("the page's Date.now()", Number(date), rendered);
  assertDuring("the page's performance.timeOrigin + performance.now()", Number(perf), rendered);
  assertDuring("the PDF's CreationDate", Date.parse(pdfInfo(rendered.pdf, ['-isodates']).CreationDate!), rendered, 1000);
}

test("a render on a server that has run a while sees the wall clock: in the page, in CreationDate, in PDF/A's XMP; the PDF's Creator is Quire", async (t) => {
  const started = Date.now();
  const server = await startTestServer(t);
  // One render at once: the later ones run on a lane that has served before, as on a busy server.
  assertPageClock(await render(server, {}));
  await waitFor(() => Date.now() - started > SERVER_AGE_MS, `the server to have run for more than ${SERVER_AGE_MS} ms`, SERVER_AGE_MS + 5000);

  await t.test('default options: networkidle0 on the virtual clock, twice in a row', async () => {
    assertPageClock(await render(server, {}));
    assertPageClock(await render(server, {}));
  });

  await t.test('wait_until load: the wall clock', async () => {
    assertPageClock(await render(server, { wait_until: 'load' }));
  });

  await t.test("PDF/A: CreationDate and the XMP's CreateDate agree, at the render's time", async () => {
    const rendered = await render(server, { pdf_a: 'PDF/A-2b' }, '<p>archived</p>');
    const created = Date.parse(pdfInfo(rendered.pdf, ['-isodates']).CreationDate!);
    assertDuring("the PDF/A file's CreationDate", created, rendered, 1000);
    const { xmp } = pdfaIdOf(rendered.pdf);
    const [, createDate] = /xmp:CreateDate(?:>|=")([^<"]+)/.exec(xmp) ?? [];
    assert.ok(createDate, `the XMP has a CreateDate: ${xmp}`);
    assert.equal(Date.parse(createDate), created, `xmp:CreateDate ${createDate} is the Info dictionary's CreationDate`);
  });

  await t.test('Creator: Quire unless the caller names one, on a render and a merge', async () => {
    assert.equal(pdfInfo((await render(server, {}, '<p>made</p>')).pdf).Creator, 'Quire');
    assert.equal(pdfInfo((await render(server, { metadata: { creator: 'Ledger 4' } }, '<p>named</p>')).pdf).Creator, 'Ledger 4');
    const merged = await server.request('POST', '/v1/pdf/merge', { sources: [{ html: '<p>one</p>' }, { html: '<p>two</p>' }] });
    assert.equal(merged.status, 200, await merged.clone().text());
    assert.equal(pdfInfo(new Uint8Array(await merged.arrayBuffer())).Creator, 'Quire');
  });
});
