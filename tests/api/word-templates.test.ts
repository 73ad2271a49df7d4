// Word (docx) templates against a real LibreOffice: a template written in the test (an invoice with
// a 50-row table loop, a condition and a logo from data) is stored with its placeholders and the
// sample data's lint, refused when hostile or when a tag does not parse, and rendered by POST
// /v1/pdf with a header, a JSON e-invoice and PDF/A-3 on top, read back with pdftotext.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { errorOf, startTestServer, usageOf, type TestServer } from '../helpers/start-app.ts';
import { officeTest } from '../helpers/needs-office.ts';
import { base64, docx, xlsx } from '../helpers/office-fixtures.ts';
import { zipBomb } from '../helpers/office-checks.ts';
import { imagesOf, pageTexts } from '../helpers/pdf-cli.ts';
import { detach, xmpPacket } from '../helpers/attached-files.ts';
import { invoiceData, invoiceTemplate, pngDataUrl } from '../helpers/word-fixtures.ts';
import { waitFor } from '../helpers/wait-for.ts';

const INVOICE = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'examples', 'invoice.json'), 'utf8')) as Record<string, unknown>;

async function createWord(server: TestServer, file: Uint8Array, sample?: Record<string, unknown>): Promise<Response> {
  return server.request('POST', '/v1/templates', { name: 'Invoice', format: 'docx', file: base64(file), sample_data: sample });
}

async function refusedUncharged(server: TestServer, send: () => Promise<Response>): Promise<{ status: number; detail: string }> {
  const before = await usageOf(server);
  const response = await send();
  const error = await errorOf(response);
  assert.equal(await usageOf(server), before, 'nothing is charged');
  return { status: response.status, detail: error.detail };
}

/** One template's bytes (each docx() call stamps the zip with the time). */
const TEMPLATE = invoiceTemplate();

officeTest('Word templates', { timeout: 300_000 }, async (t) => {
  const server = await startTestServer(t, { officeConcurrency: 1 });
  const sample = { ...invoiceData(2), customer: { name: 'Sample Customer', vat_id: 'DE123' }, notes: 'unused' };
  const created = await createWord(server, TEMPLATE, sample);
  assert.equal(created.status, 201, await created.clone().text());
  const { template_id } = (await created.json()) as { template_id: string };

  await t.test('GET shows the file, the placeholders as a tree and the sample data’s lint', async () => {
    const got = (await (await server.request('GET', `/v1/templates/${template_id}`)).json()) as Record<string, unknown>;
    assert.equal(got.format, 'docx');
    assert.equal(got.file, base64(TEMPLATE));
    assert.equal(got.html, undefined);
    const items = (got.placeholders as { name: string; kind: string; children?: { name: string }[] }[]).find((node) => node.name === 'items');
    assert.deepEqual(items?.kind, 'section');
    assert.deepEqual(
      items?.children?.map((child) => child.name),
      ['description', 'quantity', 'price'],
    );
    // The sample has no logo; customer.vat_id and notes are data no tag prints.
    assert.deepEqual(got.data_lint, { missing: ['logo'], unused: ['customer.vat_id', 'notes'] });
  });

  await t.test('a 50-row invoice with a logo, a footer and a JSON e-invoice: PDF/A-3 with factur-x.xml, charged one render', async () => {
    const before = await usageOf(server);
    const response = await server.render({
      template_id,
      data: invoiceData(50, pngDataUrl(120, 60)),
      options: {
        footer: '<div style="font-size:9px;text-align:center">Page {{page}} of {{pages}}</div>',
        e_invoice: { profile: 'EN 16931', invoice: INVOICE },
      },
    });
    const pdf = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.status, 200, Buffer.from(pdf).toString().slice(0, 300));
    assert.equal(await usageOf(server), before + 1);
    const pages = pageTexts(pdf).map((text) => text.replace(/[ \t]+/g, ' '));
    assert.ok(pages.length >= 2, `50 rows take more than one page (${pages.length})`);
    const text = pages.join('\n');
    for (const expected of ['Invoice INV-2026-042', 'Bill to: Acme Trading GmbH', 'Widget 1 ', 'Widget 50', 'Total: 1234.50 EUR', 'Paid with thanks.'])
      assert.ok(text.includes(expected), `the PDF shows "${expected}"`);
    assert.equal(text.match(/Widget \d+/g)?.length, 50, 'one row per item');
    assert.doesNotMatch(text, /[{}]/, 'no tag is left');
    assert.match(pages.at(-1)!, new RegExp(`Page ${pages.length} of ${pages.length}`), 'the footer numbers the pages');
    assert.ok(
      imagesOf(pdf).some((image) => image.width === 120 && image.height === 60),
      'the logo from data is in the PDF',
    );
    assert.match(xmpPacket(pdf), /<pdfaid:part>3<\/pdfaid:part>/);
    assert.deepEqual(
      detach(pdf).map((file) => file.name),
      ['factur-x.xml'],
    );
  });

  await t.test('a condition that is false leaves its text out; a version renders as it was', async () => {
    const replaced = await server.request('PUT', `/v1/templates/${template_id}`, {
      name: 'Invoice v2',
      format: 'docx',
      file: base64(docx([['Second version for {customer.name}', '{#paid}Paid.{/paid}']])),
    });
    assert.equal(replaced.status, 200);
    const now = pageTexts(new Uint8Array(await (await server.render({ template_id, data: { customer: { name: 'Zed' }, paid: false } })).arrayBuffer())).join(
      '',
    );
    assert.match(now, /Second version for Zed/);
    assert.doesNotMatch(now, /Paid\./);
    const old = await server.render({ template_id, template_version: 1, data: invoiceData(3) });
    assert.equal(old.status, 200);
    assert.match(pageTexts(new Uint8Array(await old.arrayBuffer())).join(''), /Widget 3/);
  });

  await t.test('refusals: a tag that does not parse (named), not a docx, a zip bomb, html for a docx, bad image data', async () => {
    const cases: [() => Promise<Response>, number, RegExp][] = [
      [() => createWord(server, docx([['{#items}{name}']])), 400, /the tag \{#items\} is never closed/],
      [() => createWord(server, docx([['{#a}x{/b}']])), 400, /the tag \{\/b\} closes \{#a\}/],
      [() => createWord(server, docx([['Dear {name']])), 400, /a \{ that is not part of a tag, near "Dear \{name"/],
      [() => createWord(server, xlsx([['a']])), 400, /file is not a Word \(docx\) file/],
      [() => createWord(server, zipBomb()), 400, /likely zip bomb/],
      [() => server.request('POST', '/v1/templates', { name: 'x', format: 'docx', html: '<p>x</p>' }), 400, /sent as file/],
      [() => server.render({ template_id, data: { logo: 'data:image/png;base64,AAAA' }, template_version: 1 }), 400, /data\.logo is not an image/],
    ];
    for (const [send, status, detail] of cases) {
      const error = await refusedUncharged(server, send);
      assert.equal(error.status, status, error.detail);
      assert.match(error.detail, detail);
    }
  });

  await t.test('merges and images refuse a Word template with a sentence that says where it renders', async () => {
    const response = await server.request('POST', '/v1/pdf/merge', { sources: [{ template_id }, { html: '<p>x</p>' }] });
    const error = await errorOf(response);
    assert.equal(response.status, 400);
    assert.match(error.detail, /is a Word template: render it with POST \/v1\/pdf/);
  });
});

officeTest(
  'a render sent right after a save is not refused while the save’s reference conversion holds the only LibreOffice',
  { timeout: 180_000 },
  async (t) => {
    // A queue timeout far shorter than LibreOffice's start, which the reference conversion (the
    // server's first) pays inside the pool's only slot: a loaded machine stretches both to this.
    const server = await startTestServer(t, { officeConcurrency: 1, renderQueueTimeoutMs: 300 });
    const created = await createWord(server, TEMPLATE, invoiceData(2));
    assert.equal(created.status, 201, await created.clone().text());
    const { template_id } = (await created.json()) as { template_id: string };
    const office = async () => ((await (await server.requestWithoutKey('GET', '/health')).json()) as { office: { busy: number; conversions: number } }).office;
    await waitFor(async () => (await office()).busy === 1, 'the reference conversion to hold the LibreOffice slot');
    // Before: 503 renderer_busy once the queue timeout passed, though this was the only request.
    const response = await server.render({ template_id, data: invoiceData(3) });
    const pdf = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.status, 200, Buffer.from(pdf).toString().slice(0, 300));
    assert.match(pageTexts(pdf).join(''), /Widget 3/);
    assert.equal((await office()).conversions, 2, 'the reference and the render');
  },
);
