// The PDF/UA-1 fixer and checker (server/src/pdf/ua, issue 42) on Chromium's real tagged output:
// the starter invoice, a table with <th scope>, images with and without alt, links, and a page
// with header and footer templates each fail the checker as Chromium prints them and pass once
// made UA. Other tools read the result: pdfinfo (Tagged, title, XMP), qpdf's JSON of the
// structure tree, qpdf's content streams (artifacts), pdftotext's reading order.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFArray, PDFDict, PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { checkConformance } from '../../server/src/pdf/conformance.ts';
import { makeArchival } from '../../server/src/pdf/pdf-a.ts';
import { checkUa } from '../../server/src/pdf/ua/check-ua.ts';
import { makeUa, UaTitleMissingError } from '../../server/src/pdf/ua/make-ua.ts';
import { pdfInfo, qdfText } from '../helpers/pdf-cli.ts';
import { pdfaIdOf, qpdfJson, textOf } from '../helpers/pdf-a-tools.ts';
import { invoiceHtml, taggedPrinter, type TaggedPrinter } from '../helpers/tagged-pdf.ts';
import { LINKS_PAGE, IMAGES_PAGE, TABLE_PAGE, HEADED_PAGE_OPTIONS } from '../helpers/ua-pages.ts';

let printer: TaggedPrinter;
before(async () => {
  printer = await taggedPrinter();
});
after(() => printer?.close());

const conditionsOf = async (bytes: Uint8Array) => (await checkUa(bytes)).failed.map((finding) => finding.condition);

/** The structure types qpdf's JSON shows under the StructTreeRoot. */
function structureTypes(bytes: Uint8Array): string[] {
  const { objects, trailer } = qpdfJson(bytes);
  const catalog = objects[`obj:${trailer['/Root']}`]?.value ?? {};
  assert.ok(typeof catalog['/StructTreeRoot'] === 'string', 'qpdf finds a StructTreeRoot');
  return Object.values(objects)
    .map((object) => object.value?.['/S'])
    .filter((type): type is string => typeof type === 'string' && /^\/[A-Z]/.test(type));
}

test('the starter invoice: Chromium leaves no XMP and a PDF 2.0 type; made UA, it passes, and pdfinfo and qpdf agree', async () => {
  const chromium = await printer.print(invoiceHtml());
  assert.deepEqual(await conditionsOf(chromium), ['06-001', '02-001']);
  const made = await makeUa(chromium);
  const report = await checkUa(made.bytes);
  assert.deepEqual(made.report, report, "the fixer's report on its own parse is the checker's on the saved bytes");
  assert.deepEqual(report.failed, []);
  assert.equal(report.passed, true);
  assert.equal(report.checks, 30);
  assert.deepEqual(
    report.needs_person.map((entry) => entry.topic),
    ['alternative text', 'reading order', 'colour and contrast', 'artifacts and real content'],
  );
  const info = pdfInfo(made.bytes);
  assert.equal(info.Tagged, 'yes');
  assert.match(info.Title!, /^Invoice /);
  assert.match(pdfaIdOf(made.bytes).xmp, /<pdfuaid:part>1<\/pdfuaid:part>/);
  const types = structureTypes(made.bytes);
  for (const type of ['/Document', '/Table', '/TH', '/TD', '/H1']) assert.ok(types.includes(type), type);
  assert.match(qdfText(made.bytes), /\/RoleMap\s*<<\s*\/Strong \/Span/);
  assert.match(qdfText(made.bytes), /\/DisplayDocTitle true/);
  assert.match(qdfText(made.bytes), /\/Lang \(en\)/);
});

test('a table with <th scope> keeps its scopes; Chromium writes a scope for a plain <th> too (column in the first row, row after)', async () => {
  for (const scope of ['scope="col"', '']) {
    const made = await makeUa(await printer.print(TABLE_PAGE(scope)));
    assert.deepEqual(await conditionsOf(made.bytes), [], scope);
    assert.deepEqual(
      qdfText(made.bytes)
        .match(/\/Scope \/\w+/g)
        ?.sort(),
      ['/Scope /Column', '/Scope /Column', '/Scope /Row', '/Scope /Row'],
      scope,
    );
  }
});

test('images: alt text is kept on the Figure; an image without alt becomes an artifact, not an empty Figure', async () => {
  const chromium = await printer.print(IMAGES_PAGE);
  assert.deepEqual(await conditionsOf(chromium), ['06-001', '13-004']);
  const made = await makeUa(chromium);
  assert.deepEqual(await conditionsOf(made.bytes), []);
  const qdf = qdfText(made.bytes);
  assert.match(qdf, /\/Alt \(A red square\)/);
  assert.equal((qdf.match(/\/S \/Figure/g) ?? []).length, 1, 'one Figure left: the one with alt text');
  assert.match(qdf, /\/Artifact BMC/);
  assert.ok(made.changes.some((change) => change.startsWith('images without alt text made artifacts')));
});

test('links: Chromium gives Tabs and a Link parent but no Contents; made UA, every link is described', async () => {
  const chromium = await printer.print(LINKS_PAGE);
  assert.deepEqual(await conditionsOf(chromium), ['06-001', '28-012', '28-012']);
  const made = await makeUa(chromium);
  assert.deepEqual(await conditionsOf(made.bytes), []);
  const qdf = qdfText(made.bytes);
  assert.match(qdf, /\/Contents \(Link to https:\/\/example\.com\/prices\)/);
  assert.match(qdf, /\/Contents \(Link to sales@example\.com\)/);
  assert.match(qdf, /\/Tabs \/S/);
});

test('links that lost their structure parent and tab order get a Link element with an OBJR and /Tabs /S', async () => {
  const doc = await PDFDocument.load(await printer.print(LINKS_PAGE), { updateMetadata: false });
  const page = doc.getPages()[0]!;
  page.node.delete(PDFName.of('Tabs'));
  for (const link of page.node.lookup(PDFName.of('Annots'), PDFArray).asArray()) doc.context.lookup(link, PDFDict).delete(PDFName.of('StructParent'));
  const orphaned = await doc.save();
  assert.deepEqual(await conditionsOf(orphaned), ['06-001', '28-008', '28-012', '28-011', '28-012', '28-011']);
  const made = await makeUa(orphaned);
  assert.deepEqual(await conditionsOf(made.bytes), []);
  assert.equal((qdfText(made.bytes).match(/\/Type \/OBJR/g) ?? []).length, 4, "Chromium's two OBJRs and the two added");
});

test('header and footer templates: Chromium draws them untagged (01-005); made UA they are artifacts, still on the page around the body in the order pdftotext reads', async () => {
  const chromium = await printer.print(LINKS_PAGE, HEADED_PAGE_OPTIONS);
  const before = (await checkUa(chromium)).failed;
  assert.ok(
    before.some((finding) => finding.condition === '01-005' && finding.page === 1),
    JSON.stringify(before),
  );
  const made = await makeUa(chromium);
  assert.deepEqual(await conditionsOf(made.bytes), []);
  assert.ok(!structureTypes(made.bytes).includes('/Artifact'), 'artifacts are not in the structure tree');
  // pdftotext reads by position: header, body, footer.
  assert.match(textOf(made.bytes), /^Quire report header\s+Prices\s+Where\s+See the price list or write to sales\.\s+Page 1 of 1\s*$/);
  assert.match(qdfText(made.bytes), /\/Artifact BMC\s+BT/);
});

test('no title anywhere is refused; a given title and language are written', async () => {
  const untitled = await printer.print('<!doctype html><html><body><p>No title</p></body></html>');
  await assert.rejects(makeUa(untitled), UaTitleMissingError);
  const made = await makeUa(untitled, { title: 'Given title', lang: 'fr-CA' });
  assert.deepEqual(await conditionsOf(made.bytes), []);
  assert.equal(pdfInfo(made.bytes).Title, 'Given title');
  assert.match(qdfText(made.bytes), /\/Lang \(fr-CA\)/);
});

test('PDF/UA-1 composes with PDF/A-2a in either order: both checkers pass, the XMP holds pdfaid and pdfuaid', async () => {
  const chromium = await printer.print(invoiceHtml());
  const uaFirst = await makeArchival((await makeUa(chromium)).bytes, 'PDF/A-2a');
  const archivalFirst = (await makeUa(await makeArchival(chromium, 'PDF/A-2a'))).bytes;
  for (const [name, bytes] of [
    ['UA then PDF/A', uaFirst],
    ['PDF/A then UA', archivalFirst],
  ] as const) {
    assert.deepEqual(await conditionsOf(bytes), [], name);
    assert.deepEqual((await checkConformance(bytes, 'PDF/A-2a')).failed, [], name);
    const { part, conformance, xmp } = pdfaIdOf(bytes);
    assert.equal(`${part}${conformance}`, '2A', name);
    assert.match(xmp, /<pdfuaid:part>1<\/pdfuaid:part>/, name);
    assert.match(xmp, /<pdfaSchema:prefix>pdfuaid<\/pdfaSchema:prefix>/, name);
  }
});
