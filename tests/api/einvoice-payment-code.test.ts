// The readable PDF of an e-invoice that asks for a SEPA credit transfer carries its EPC QR code
// (GiroCode): POST /v1/einvoice makes the XML from the JSON example, POST /v1/einvoice/render
// prints it, and zbarimg reads the code off the printed page, byte for byte the EPC069-12 payload.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { epcPayload } from '../../server/src/payments/epc-qr.ts';
import { pdfOf } from '../helpers/einvoice-corpus.ts';
import { pageTexts } from '../helpers/pdf-cli.ts';
import { decodeQrCodes, rasterisePdfPage } from '../helpers/qr-decode.ts';
import { startTestServer, type TestServer } from '../helpers/start-app.ts';

const EXAMPLE = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', '..', 'docs', 'examples', 'einvoice-simple.json'), 'utf8'));

async function renderedFromJson(server: TestServer, invoice: unknown): Promise<Uint8Array> {
  const made = await server.request('POST', '/v1/einvoice', { format: 'facturx-en16931', invoice });
  assert.equal(made.status, 200, await made.clone().text());
  const xml = await made.text();
  return pdfOf(await server.request('POST', '/v1/einvoice/render', xml, { 'content-type': 'application/xml' }));
}

/** Every QR code zbarimg finds on the printed pages, page by page. */
async function codesOn(pdf: Uint8Array): Promise<string[]> {
  const codes: string[] = [];
  for (let page = 1; page <= pageTexts(pdf).length; page++) codes.push(...(await decodeQrCodes(await rasterisePdfPage(pdf, page, 200))));
  return codes;
}

test('a SEPA credit transfer in euros: the printed GiroCode reads back as the EPC069-12 payload of payee, IBAN, BIC, amount due and reference', async (t) => {
  const server = await startTestServer(t);
  const pdf = await renderedFromJson(server, EXAMPLE);
  const expected = epcPayload({ name: 'Muster Software GmbH', iban: 'DE02120300000000202051', bic: 'BYLADEM1001', amount: '1736.21', text: 'RE-2026-0042' });
  assert.deepEqual(await codesOn(pdf), [expected]);
  assert.equal(expected.split('\n')[7], 'EUR1736.21');
  assert.match(pageTexts(pdf).join('\n').replace(/\s+/g, ' '), /Pay by SEPA credit transfer Scan the EPC QR code \(GiroCode\)/);
});

test('an invoice in another currency gets no code, and the view says why', async (t) => {
  const server = await startTestServer(t);
  const pdf = await renderedFromJson(server, { ...EXAMPLE, currency: 'CHF' });
  assert.deepEqual(await codesOn(pdf), []);
  assert.match(pageTexts(pdf).join('\n').replace(/\s+/g, ' '), /No EPC QR code: it pays euros only, and this invoice is due in CHF\./);
});
