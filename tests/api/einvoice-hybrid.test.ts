// POST /v1/einvoice/inspect on hybrid PDFs made by our own render route: the invoice is found among
// the attachments (by its Factur-X name, or as an invoice XML attached as Alternative), read and
// checked as the XML itself is, and the answer names the attachment. A PDF with no invoice or two,
// a file that is not a PDF and a decompression bomb are refused with their 4xx, uncharged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, startTestServer, type TestServer, usageOf } from '../helpers/start-app.ts';
import { streamBomb } from '../helpers/pdf-bombs.ts';
import { corpusFile, corpusSkip as skip, pdfOf, postPdf, xmlAttachment as attachment } from '../helpers/einvoice-corpus.ts';

const base64 = (text: string | Uint8Array) => Buffer.from(text).toString('base64');
const inspectPdf = (server: TestServer, pdf: Uint8Array) => postPdf(server, pdf);

test('a hybrid PDF is inspected from its invoice attachment, raw or as JSON base64, uncharged', { skip }, async (t) => {
  const server = await startTestServer(t);
  const xml = corpusFile('broken/cii-en16931-valid.xml');
  const facturX = await pdfOf(await server.render({ html: '<p>Invoice</p>', options: { e_invoice: { profile: 'EN 16931', xml } } }));
  const ubl = corpusFile('broken/ubl-xrechnung-valid.xml');
  const other = await pdfOf(
    await server.render({ html: '<p>x</p>', options: { attachments: [attachment('rechnung.xml', ubl), attachment('notes.xml', '<notes/>')] } }),
  );
  const before = await usageOf(server);

  const response = await inspectPdf(server, facturX);
  assert.equal(response.status, 200, await response.clone().text());
  const report = (await response.json()) as Record<string, unknown>;
  assert.deepEqual(report.source, { kind: 'pdf', attachment: 'factur-x.xml' });
  assert.deepEqual([report.syntax, report.profile, report.valid], ['CII', 'EN 16931', true]);
  const fromXml = (await (await server.request('POST', '/v1/einvoice/inspect', xml, { 'content-type': 'application/xml' })).json()) as Record<string, unknown>;
  assert.deepEqual(fromXml.source, { kind: 'xml' });
  assert.deepEqual(report.invoice, fromXml.invoice, 'the attachment reads as the XML it was made from');

  const json = await server.request('POST', '/v1/einvoice/inspect', { pdf: base64(facturX) });
  assert.equal(json.status, 200);
  assert.deepEqual(((await json.json()) as Record<string, unknown>).source, { kind: 'pdf', attachment: 'factur-x.xml' });

  // A UBL invoice attached under another name as the document's Alternative is found by its root.
  const found = (await (await inspectPdf(server, other)).json()) as Record<string, unknown>;
  assert.deepEqual([found.source, found.syntax, found.profile], [{ kind: 'pdf', attachment: 'rechnung.xml' }, 'UBL', 'XRechnung']);
  assert.equal(await usageOf(server), before, 'inspecting a PDF is not charged');
});

test('a PDF without an invoice, with two, not a PDF, or a bomb is refused with its 4xx', { skip }, async (t) => {
  // A small stream budget: the bomb is refused from a few MB instead of the default's hundreds.
  const server = await startTestServer(t, { pdfStreamMaxBytes: 2 * 1024 * 1024, pdfStreamsMaxBytes: 2 * 1024 * 1024 });
  const xml = corpusFile('broken/cii-en16931-valid.xml');
  const before = await usageOf(server);
  const refused = async (response: Response, status: number, code: string) => {
    const error = await errorOf(response);
    assert.deepEqual([error.status, error.code], [status, code], error.detail);
    return error.detail;
  };

  const plain = await pdfOf(await server.render({ html: '<p>no invoice</p>', options: { attachments: [attachment('notes.xml', '<notes/>', 'Data')] } }));
  const none = await refused(await inspectPdf(server, plain), 422, 'einvoice_unreadable');
  assert.match(none, /no e-invoice/);
  assert.match(none, /notes\.xml \(Data\)/, 'the refusal lists what the PDF does carry');

  const two = await pdfOf(
    await server.render({ html: '<p>two</p>', options: { attachments: [attachment('factur-x.xml', xml), attachment('xrechnung.xml', xml, 'Data')] } }),
  );
  const both = await refused(await inspectPdf(server, two), 422, 'einvoice_unreadable');
  assert.match(both, /2 e-invoices/);
  assert.match(both, /factur-x\.xml/);
  assert.match(both, /xrechnung\.xml/);

  await refused(await inspectPdf(server, new TextEncoder().encode('not a pdf at all')), 422, 'pdf_unreadable');
  await refused(await server.request('POST', '/v1/einvoice/inspect', { pdf: base64('%PDF-1.7\ngarbage') }), 422, 'pdf_unreadable');
  await refused(await inspectPdf(server, streamBomb(8, ['FlateDecode', 'FlateDecode'])), 413, 'payload_too_large');
  await refused(await server.request('POST', '/v1/einvoice/inspect', { xml, pdf: base64(plain) }), 400, 'invalid_request');
  assert.equal(await usageOf(server), before + 2, 'only the two renders that made the test PDFs were charged');
});
