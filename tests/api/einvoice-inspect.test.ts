// POST /v1/einvoice/inspect on files of the shared e-invoice corpus (../shared/einvoice-corpus beside
// the repository, never copied in): the fatal rule ids of every rule set equal the official verdicts
// in expected.json, the profile comes from BT-24, and nothing is charged. Hostile or empty input
// is refused with its 4xx and {detail, code}.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { errorOf, startTestServer, type TestServer, usageOf } from '../helpers/start-app.ts';

const CORPUS = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'einvoice-corpus');
const skip = existsSync(path.join(CORPUS, 'expected.json')) ? false : `the shared corpus is not at ${CORPUS}`;
const SETS = ['en16931', 'xrechnung', 'peppol'] as const;

interface Finding {
  id: string;
  detail: string;
  location: string;
}
interface Inspection {
  syntax: string;
  document: string;
  specification_id: string | null;
  profile: string | null;
  rule_set: string;
  valid: boolean;
  rule_sets: Record<(typeof SETS)[number], { fatal: Finding[]; warnings: Finding[]; partial?: true }>;
  invoice: Record<string, unknown>;
}

const corpusFile = (name: string) => readFileSync(path.join(CORPUS, 'broken', name), 'utf8');
const officialFatal = (name: string): Record<string, string[]> =>
  JSON.parse(readFileSync(path.join(CORPUS, 'expected.json'), 'utf8')).files[`broken/${name}`].fatal;
const ids = (findings: Finding[]) => [...new Set(findings.map((finding) => finding.id))].sort();

function postXml(server: TestServer, xml: string, type = 'application/xml'): Promise<Response> {
  return server.request('POST', '/v1/einvoice/inspect', xml, { 'content-type': type });
}

async function inspect(server: TestServer, name: string, send: 'xml' | 'text/xml' | 'json' = 'xml'): Promise<Inspection> {
  const xml = corpusFile(name);
  const response =
    send === 'json' ? await server.request('POST', '/v1/einvoice/inspect', { xml }) : await postXml(server, xml, send === 'xml' ? 'application/xml' : send);
  assert.equal(response.status, 200, await response.clone().text());
  const report = (await response.json()) as Inspection;
  const official = officialFatal(name);
  for (const set of SETS) assert.deepEqual(ids(report.rule_sets[set].fatal), official[set] ?? [], `${name}: ${set}`);
  return report;
}

test('inspect reports syntax, document, profile and the official fatal ids of every rule set, uncharged', { skip }, async (t) => {
  const server = await startTestServer(t);
  const before = await usageOf(server);

  const cii = await inspect(server, 'cii-en16931-valid.xml');
  assert.deepEqual([cii.syntax, cii.document, cii.profile, cii.rule_set, cii.valid], ['CII', 'Invoice', 'EN 16931', 'en16931', true]);
  assert.equal(cii.specification_id, 'urn:cen.eu:en16931:2017');
  assert.equal(cii.rule_sets.peppol.partial, undefined);
  assert.equal(cii.rule_sets.en16931.partial, undefined);
  // The invoice as our JSON: values without their locations, keys in snake_case.
  const number = /<rsm:ExchangedDocument>\s*<ram:ID>([^<]+)</.exec(corpusFile('cii-en16931-valid.xml'))![1];
  assert.equal(cii.invoice.number, number);
  assert.deepEqual(cii.invoice.issue_date, { value: '20261126', format: '102', iso: '2026-11-26' });
  assert.ok(Array.isArray(cii.invoice.lines) && cii.invoice.lines.length > 0);
  assert.doesNotMatch(JSON.stringify(cii.invoice), /"path"|rsm:/);

  const credit = await inspect(server, 'ubl-credit-note-381-valid.xml', 'json');
  assert.deepEqual([credit.syntax, credit.document, credit.valid], ['UBL', 'CreditNote', true]);

  const xrechnung = await inspect(server, 'cii-xrechnung-valid.xml', 'text/xml');
  assert.deepEqual([xrechnung.profile, xrechnung.rule_set, xrechnung.valid], ['XRechnung', 'xrechnung', true]);
  const peppol = await inspect(server, 'ubl-peppol-valid.xml');
  assert.deepEqual([peppol.profile, peppol.rule_set, peppol.valid], ['Peppol BIS Billing 3.0', 'peppol', true]);

  // Broken ones: refused by the rule set their profile names, each finding with our sentence and its place.
  const noBuyerReference = await inspect(server, 'cii-br-de-15-xrechnung-no-buyer-reference.xml');
  assert.deepEqual([noBuyerReference.profile, noBuyerReference.valid], ['XRechnung', false]);
  const de15 = noBuyerReference.rule_sets.xrechnung.fatal.find((finding) => finding.id === 'BR-DE-15')!;
  assert.match(de15.detail, /BT-10/);
  assert.match(de15.location, /^\/rsm:CrossIndustryInvoice/);
  const grandTotal = await inspect(server, 'ubl-br-co-15-tax-inclusive-mismatch.xml');
  assert.deepEqual([grandTotal.syntax, grandTotal.valid], ['UBL', false]);
  assert.equal(grandTotal.rule_sets.en16931.fatal[0]?.location, '/ubl:Invoice/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount');

  assert.equal(await usageOf(server), before, 'inspect is not charged');
});

test('hostile, foreign and empty input is refused with a 4xx and {detail, code}; no key is 401', async (t) => {
  const server = await startTestServer(t);
  const before = await usageOf(server);
  const refused = async (response: Response, status: number, code: string) => {
    const error = await errorOf(response);
    assert.deepEqual([error.status, error.code], [status, code], error.detail);
    assert.ok(error.detail.length > 0);
    return error.detail;
  };
  const xxe =
    '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">&x;</rsm:CrossIndustryInvoice>';
  assert.doesNotMatch(await refused(await postXml(server, xxe), 422, 'einvoice_unreadable'), /root:/);
  const laughs = `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${'b'.repeat(i + 1)} "${`&${i === 0 ? 'a' : 'b'.repeat(i)};`.repeat(10)}">`).join('')}]><l>&bbbbbbbbb;</l>`;
  await refused(await postXml(server, laughs), 422, 'einvoice_unreadable');
  await refused(await postXml(server, '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><cbc:ID>1'), 422, 'einvoice_unreadable');
  const order = await refused(await postXml(server, '<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>'), 422, 'einvoice_unreadable');
  assert.match(order, /Order/);
  await refused(await postXml(server, ''), 400, 'invalid_request');
  await refused(await postXml(server, '<x/>', 'text/plain'), 400, 'invalid_request');
  await refused(await server.request('POST', '/v1/einvoice/inspect', { xml: 5 }), 400, 'invalid_request');
  await refused(await server.request('POST', '/v1/einvoice/inspect', '{"xml":', { 'content-type': 'application/json' }), 400, 'invalid_json');

  // Over the 20 MB bound: the raw body is refused from its length, the JSON one by the XML reader.
  const big = `<a>${'x'.repeat(20 * 1024 * 1024)}</a>`;
  await refused(await postXml(server, big), 413, 'payload_too_large');
  await refused(await server.request('POST', '/v1/einvoice/inspect', { xml: big }), 413, 'payload_too_large');

  await refused(await server.requestWithoutKey('POST', '/v1/einvoice/inspect', '<x/>', { 'content-type': 'application/xml' }), 401, 'unauthorized');
  assert.equal(await usageOf(server), before, 'a refusal is not charged');
});

test('the OpenAPI document describes the call: its four body types, the report and its error codes', async (t) => {
  const server = await startTestServer(t);
  const document = (await (await server.requestWithoutKey('GET', '/openapi.json')).json()) as {
    paths: Record<
      string,
      {
        post?: {
          requestBody: { content: Record<string, unknown> };
          responses: Record<string, { content?: Record<string, { schema: { properties?: object } }> }>;
        };
      }
    >;
  };
  const post = document.paths['/v1/einvoice/inspect']?.post;
  assert.ok(post, 'POST /v1/einvoice/inspect is described');
  assert.deepEqual(Object.keys(post.requestBody.content).sort(), ['application/json', 'application/pdf', 'application/xml', 'text/xml']);
  const report = post.responses['200']!.content!['application/json']!.schema;
  assert.ok(report.properties && 'rule_sets' in report.properties && 'invoice' in report.properties);
  assert.ok(post.responses['422'] && post.responses['413'], 'the 422 and 413 refusals are listed');
});
