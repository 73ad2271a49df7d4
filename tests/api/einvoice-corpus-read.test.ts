// test-lane: own-server (three PDF tool calls at once would crowd the shared server's four PDF tool slots).

// Every file of the shared e-invoice corpus read the three ways a business receives it: as XML
// (inspect: the official fatal ids of every rule set), inside a hybrid PDF (options.e_invoice of our
// own render route where the file's BT-24 names a Factur-X profile whose XSD it meets, else one PDF
// made once with the XML attached by a transform, no Chromium), and drawn by POST /v1/einvoice/render,
// whose text shows the invoice number, the seller's name and the amount due, and whose header carries
// the verdict. The default view's HTML is checked for every file; the PDF is rendered for the first
// files of each route (XML of each syntax, a Factur-X PDF): 89 Chromium views were most of the time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { profileOfGuideline } from '../../server/src/einvoice/profiles.ts';
import { viewData } from '../../server/src/services/einvoice/read.ts';
import { expandDefaultView } from '../../server/src/services/einvoice/view-template.ts';
import type { SourcedInspection } from '../../server/src/shapes/einvoice-inspection-json.ts';
import { corpusFile, corpusSkip as skip, corpusVerdicts, pdfOf, postPdf, xmlAttachment } from '../helpers/einvoice-corpus.ts';
import { pageTexts } from '../helpers/pdf-cli.ts';
import { startTestServer, type TestServer, usageOf } from '../helpers/start-app.ts';

const SETS = ['en16931', 'xrechnung', 'peppol'] as const;

interface Inspection {
  syntax: string;
  specification_id: string | null;
  rule_set: (typeof SETS)[number];
  rule_sets: Record<(typeof SETS)[number], { fatal: { id: string }[] }>;
  invoice: Record<string, unknown>;
  source: { kind: string; attachment?: string };
}

/** What a file's read gave, for the summary assertions after the loop. */
interface Outcome {
  file: string;
  hybrid: 'e_invoice' | 'refused' | 'attach_xml';
  problems: string[];
}

const ids = (inspection: Inspection, set: (typeof SETS)[number]) => [...new Set(inspection.rule_sets[set].fatal.map((finding) => finding.id))].sort();
/** A JSON value as text: itself, or the value of one with attributes. */
const text = (value: unknown) => (typeof value === 'string' ? value : ((value as { value?: string } | undefined)?.value ?? ''));

async function inspected(response: Response, what: string): Promise<Inspection> {
  assert.equal(response.status, 200, `${what}: ${await response.clone().text()}`);
  return (await response.json()) as Inspection;
}

/** Differences between an inspection and the official verdicts (and the XML's own reading). */
function verdictProblems(what: string, inspection: Inspection, official: Record<string, string[]>, fromXml?: Inspection): string[] {
  const problems = SETS.filter((set) => ids(inspection, set).join() !== (official[set] ?? []).join()).map(
    (set) => `${what} ${set}: [${ids(inspection, set).join(', ')}], official [${(official[set] ?? []).join(', ')}]`,
  );
  if (fromXml && JSON.stringify(inspection.invoice) !== JSON.stringify(fromXml.invoice)) problems.push(`${what}: the invoice differs from the XML's`);
  return problems;
}

/** Views rendered through Chromium per route; the rest of the files have their view's HTML checked. */
const RENDERED_VIEWS = 2;

/** What the view must show: the number, the seller and the amount due. */
function shownValues(xml: Inspection): string[] {
  const { invoice } = xml;
  const seller = text((invoice.seller as Record<string, unknown> | undefined)?.name);
  const payable = text((invoice.totals as Record<string, unknown> | undefined)?.payable);
  return [text(invoice.number), seller.replace(/\s+/g, ' '), payable].filter(Boolean);
}

/** The default view's HTML for the inspection, as text: the same expansion POST /v1/einvoice/render prints. */
function viewHtmlProblems(xml: Inspection): string[] {
  const html = expandDefaultView(viewData(xml as unknown as SourcedInspection));
  const shown = html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([\da-f]+);/gi, (_, code: string) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name]!)
    .replace(/\s+/g, ' ');
  return shownValues(xml)
    .filter((value) => !shown.includes(value))
    .map((value) => `view HTML lacks "${value}"`);
}

/** The readable PDF shows the number, the seller and the amount due; its header the verdict of its rule set. */
async function viewProblems(response: Response, xml: Inspection, official: Record<string, string[]>): Promise<string[]> {
  const pdf = await pdfOf(response);
  const shown = pageTexts(pdf).join('\n').replace(/\s+/g, ' ');
  const problems = shownValues(xml)
    .filter((value) => !shown.includes(value))
    .map((value) => `view lacks "${value}"`);
  const header = response.headers.get('x-e-invoice-report') ?? '';
  const fatal = Number(/fatal=(\d+)/.exec(header)?.[1] ?? -1);
  if (!header.startsWith(`rules=${xml.rule_set};`) || fatal > 0 !== (official[xml.rule_set] ?? []).length > 0) problems.push(`header "${header}"`);
  return problems;
}

/** The shared state of one run: the PDF the attached hybrids are made from, and the views rendered per route. */
interface Run {
  server: TestServer;
  base: string;
  rendered: Record<string, number>;
}

/** Whether this file's view is rendered (claimed before any await, so three readers never take more than RENDERED_VIEWS). */
function claimView(run: Run, route: string): boolean {
  run.rendered[route] = (run.rendered[route] ?? 0) + 1;
  return run.rendered[route]! <= RENDERED_VIEWS;
}

async function readAllWays(run: Run, file: string, official: Record<string, string[]>): Promise<Outcome> {
  const { server } = run;
  const xml = corpusFile(file);
  const fromXml = await inspected(await server.request('POST', '/v1/einvoice/inspect', xml, { 'content-type': 'application/xml' }), file);
  const problems = [...verdictProblems('xml', fromXml, official), ...viewHtmlProblems(fromXml)];
  const profile = fromXml.syntax === 'CII' ? profileOfGuideline(fromXml.specification_id ?? '') : undefined;
  const facturX = profile && (await server.render({ html: '<p>hybrid</p>', options: { wait_until: 'load', e_invoice: { profile, xml } } }));
  if (facturX && facturX.status === 200) {
    // A Factur-X PDF of our own: inspected, then drawn from the PDF.
    const pdf = new Uint8Array(await facturX.arrayBuffer());
    const fromPdf = await inspected(await postPdf(server, pdf), `${file} in a PDF`);
    // Options.e_invoice names the XML as the format does: xrechnung.xml for XRechnung, factur-x.xml otherwise.
    const name = profile === 'XRECHNUNG' ? 'xrechnung.xml' : 'factur-x.xml';
    if (fromPdf.source.attachment !== name) problems.push(`read from ${fromPdf.source.attachment}, not ${name}`);
    problems.push(...verdictProblems('pdf', fromPdf, official, fromXml));
    if (claimView(run, 'pdf')) problems.push(...(await viewProblems(await postPdf(server, pdf, '/v1/einvoice/render'), fromXml, official)));
    return { file, hybrid: 'e_invoice', problems };
  }
  let hybrid: Outcome['hybrid'] = 'attach_xml';
  if (facturX && facturX.status === 400) {
    // Our rules on the render path refuse exactly what the official rules of the profile's set refuse.
    const body = (await facturX.json()) as { code: string; rules?: { id: string }[] };
    const set = profile === 'XRECHNUNG' ? 'xrechnung' : 'en16931';
    if (body.code === 'einvoice_invalid') {
      const refusedIds = [...new Set((body.rules ?? []).map((rule) => rule.id))].sort().join();
      if (refusedIds !== (official[set] ?? []).join()) problems.push(`render refused [${refusedIds}], official ${set} [${(official[set] ?? []).join()}]`);
      hybrid = 'refused';
    }
  }
  // UBL, no Factur-X profile, or an XML its profile's XSD or rules refuse: the XML attached as the
  // view's attach_xml attaches it (Source, named by its syntax), to the one PDF made for the run.
  if (claimView(run, fromXml.syntax)) problems.push(...(await viewProblems(await server.request('POST', '/v1/einvoice/render', { xml }), fromXml, official)));
  const attached = await server.request('POST', '/v1/pdf/transform', {
    pdf: run.base,
    steps: [{ op: 'select', pages: '1-' }],
    options: { attachments: [xmlAttachment(`invoice-${fromXml.syntax.toLowerCase()}.xml`, xml, 'Source')] },
  });
  const fromPdf = await inspected(await postPdf(server, await pdfOf(attached)), `${file} attached to a PDF`);
  problems.push(...verdictProblems('pdf', fromPdf, official, fromXml));
  return { file, hybrid, problems };
}

test('every corpus file inspects as XML and in a hybrid PDF with the official verdicts, and renders readably', { skip, timeout: 15 * 60_000 }, async (t) => {
  const server = await startTestServer(t);
  const verdicts = Object.entries(corpusVerdicts());
  assert.equal(verdicts.length, 89);
  const before = await usageOf(server);
  const base = await pdfOf(await server.render({ html: '<h1>A PDF that carries an e-invoice</h1>', options: { wait_until: 'load' } }));
  const run: Run = { server, base: Buffer.from(base).toString('base64'), rendered: {} };
  const outcomes: Outcome[] = [];
  // Three at a time: the renders overlap without crowding the machine other tests share.
  const queue = [...verdicts];
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) outcomes.push(await readAllWays(run, next[0], next[1].fatal));
    }),
  );
  assert.deepEqual(
    outcomes.filter((outcome) => outcome.problems.length > 0).map((outcome) => `${outcome.file}: ${outcome.problems.join('; ')}`),
    [],
  );
  const count = (hybrid: Outcome['hybrid']) => outcomes.filter((outcome) => outcome.hybrid === hybrid).length;
  const [byFacturX, refused] = [count('e_invoice'), count('refused')];
  t.diagnostic(`${byFacturX} files read from a Factur-X PDF of options.e_invoice, ${refused} refused by its rules, the rest from an attached XML`);
  assert.ok(byFacturX >= 15, `the valid CII files with a Factur-X profile go through options.e_invoice (${byFacturX})`);
  assert.ok(refused >= 10, `the broken CII files with a Factur-X profile are refused by the render's rules (${refused})`);
  const views = Object.values(run.rendered).reduce((sum, claimed) => sum + Math.min(claimed, RENDERED_VIEWS), 0);
  assert.equal(views, 3 * RENDERED_VIEWS, 'views were rendered from XML of both syntaxes and from a Factur-X PDF');
  // Charged: the base PDF, each view rendered, each hybrid (Factur-X render or transform); inspecting was free.
  assert.equal(await usageOf(server), before + 1 + views + outcomes.length);
});
