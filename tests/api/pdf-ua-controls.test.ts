// Negative controls for the PDF/UA-1 checker (server/src/pdf/ua/check-ua.ts): a good file, made
// from Chromium's tagged output of one page (headings, a link, an image with alt, a table, a
// header and footer) by the fixer, is broken one way per condition with pdf-lib, and each broken
// file fails on exactly its condition. Every condition the checker decides has a control here.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFArray, PDFBool, PDFDict, PDFDocument, PDFName, type PDFRawStream, type PDFRef, PDFString, decodePDFRawStream } from '@cantoo/pdf-lib';
import { UA_CONDITIONS, type UaCondition } from '../../server/src/pdf/ua/conditions.ts';
import { checkUa } from '../../server/src/pdf/ua/check-ua.ts';
import { makeUa } from '../../server/src/pdf/ua/make-ua.ts';
import { taggedPrinter } from '../helpers/tagged-pdf.ts';
import { COMBINED_PAGE, HEADED_PAGE_OPTIONS } from '../helpers/ua-pages.ts';

let good: Uint8Array;
before(async () => {
  const printer = await taggedPrinter();
  try {
    good = (await makeUa(await printer.print(COMBINED_PAGE, HEADED_PAGE_OPTIONS))).bytes;
  } finally {
    await printer.close();
  }
});

const name = (text: string) => PDFName.of(text);
const dict = (doc: PDFDocument, key: string, from: PDFDict = doc.catalog) => from.lookup(name(key), PDFDict);

function elementsOf(doc: PDFDocument, type: string): PDFDict[] {
  return doc.context
    .enumerateIndirectObjects()
    .map(([, object]) => object)
    .filter(
      (object): object is PDFDict => object instanceof PDFDict && object.lookup(name('Type')) === name('StructElem') && object.lookup(name('S')) === name(type),
    );
}

function documentElement(doc: PDFDocument): { ref: PDFRef; element: PDFDict } {
  const ref = dict(doc, 'StructTreeRoot').get(name('K')) as PDFRef;
  return { ref, element: doc.context.lookup(ref, PDFDict) };
}

function addElement(doc: PDFDocument, fields: Record<string, unknown>): void {
  const { ref, element } = documentElement(doc);
  const added = doc.context.register(doc.context.obj({ Type: 'StructElem', P: ref, ...fields } as never));
  element.lookup(name('K'), PDFArray).push(added);
}

function editContent(doc: PDFDocument, change: (text: string) => string): void {
  const page = doc.getPages()[0]!;
  const ref = page.node.get(name('Contents')) as PDFRef;
  const text = Buffer.from(decodePDFRawStream(doc.context.lookup(ref) as PDFRawStream).decode()).toString('latin1');
  const changed = change(text);
  assert.notEqual(changed, text, 'the content stream changed');
  doc.context.assign(ref, doc.context.flateStream(Buffer.from(changed, 'latin1')));
}

function editXmp(doc: PDFDocument, change: (packet: string) => string): void {
  const packet = Buffer.from(decodePDFRawStream(doc.catalog.lookup(name('Metadata')) as PDFRawStream).decode()).toString('utf8');
  doc.catalog.set(name('Metadata'), doc.context.register(doc.context.stream(change(packet), { Type: 'Metadata', Subtype: 'XML' })));
}

const type0Font = (doc: PDFDocument) => dict(doc, 'F4', dict(doc, 'Font', doc.getPages()[0]!.node.Resources()!));
const linkAnnotation = (doc: PDFDocument) => doc.getPages()[0]!.node.lookup(name('Annots'), PDFArray).lookup(0, PDFDict);
const setS = (doc: PDFDocument, from: string, to: string) => elementsOf(doc, from)[0]!.set(name('S'), name(to));

const CONTROLS: Record<UaCondition, (doc: PDFDocument) => void> = {
  'UA1:7.1-marked': (doc) => dict(doc, 'MarkInfo').set(name('Marked'), PDFBool.False),
  '01-003': (doc) => editContent(doc, (text) => text.replace(/(<<\s*\/MCID 0\s*>>\s*BDC)/, '$1\n/Artifact BMC EMC\n')),
  '01-004': (doc) => editContent(doc, (text) => text.replace('/Artifact BMC', '/Artifact BMC\n/P <</MCID 999>> BDC EMC\n')),
  '01-005': (doc) => editContent(doc, (text) => `${text}\n0 0 10 10 re f\n`),
  '01-007': (doc) => dict(doc, 'MarkInfo').set(name('Suspects'), PDFBool.True),
  '02-001': (doc) => addElement(doc, { S: 'Custom' }),
  '02-003': (doc) => dict(doc, 'StructTreeRoot').set(name('RoleMap'), doc.context.obj({ Strong: 'Span', Loop1: 'Loop2', Loop2: 'Loop1' })),
  '02-004': (doc) => dict(doc, 'StructTreeRoot').set(name('RoleMap'), doc.context.obj({ Strong: 'Span', P: 'Span' })),
  '06-001': (doc) => doc.catalog.delete(name('Metadata')),
  '06-002': (doc) => editXmp(doc, (packet) => packet.replace('<pdfuaid:part>1</pdfuaid:part>', '<pdfuaid:part>2</pdfuaid:part>')),
  '06-003': (doc) => editXmp(doc, (packet) => packet.replace(/<dc:title>[\s\S]*?<\/dc:title>/, '')),
  '07-001': (doc) => dict(doc, 'ViewerPreferences').delete(name('DisplayDocTitle')),
  '07-002': (doc) => dict(doc, 'ViewerPreferences').set(name('DisplayDocTitle'), PDFBool.False),
  '10-001': (doc) => {
    const cmap =
      '/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfchar <0003> <FFFE> endbfchar endcmap end end';
    type0Font(doc).set(name('ToUnicode'), doc.context.register(doc.context.flateStream(cmap)));
  },
  '11-006': (doc) => doc.catalog.set(name('Lang'), PDFString.of('en-US@posix')),
  '13-004': (doc) => elementsOf(doc, 'Figure')[0]!.delete(name('Alt')),
  '14-002': (doc) => setS(doc, 'H1', 'H2'),
  '14-003': (doc) => setS(doc, 'H2', 'H3'),
  '14-007': (doc) => setS(doc, 'H2', 'H'),
  // Chromium organises tables with Headers too (TD to TH IDs): without them, a TH needs its Scope.
  '15-003': (doc) => {
    for (const cell of [elementsOf(doc, 'TH')[0]!, ...elementsOf(doc, 'TD')]) cell.delete(name('A'));
  },
  '17-002': (doc) => addElement(doc, { S: 'Formula' }),
  '19-003': (doc) => addElement(doc, { S: 'Note' }),
  '19-004': (doc) => {
    addElement(doc, { S: 'Note', ID: PDFString.of('n1') });
    addElement(doc, { S: 'Note', ID: PDFString.of('n1') });
  },
  '28-004': (doc) => {
    const note = doc.context.register(doc.context.obj({ Type: 'Annot', Subtype: 'Text', Rect: [0, 0, 10, 10] }));
    doc.getPages()[0]!.node.lookup(name('Annots'), PDFArray).push(note);
  },
  '28-008': (doc) => doc.getPages()[0]!.node.delete(name('Tabs')),
  '28-009': (doc) => doc.getPages()[0]!.node.set(name('Tabs'), name('R')),
  '28-011': (doc) => linkAnnotation(doc).delete(name('StructParent')),
  '28-012': (doc) => linkAnnotation(doc).delete(name('Contents')),
  '31-009': (doc) => {
    const descendant = type0Font(doc).lookup(name('DescendantFonts'), PDFArray).lookup(0, PDFDict);
    dict(doc, 'FontDescriptor', descendant).delete(name('FontFile2'));
  },
  '31-027': (doc) => type0Font(doc).delete(name('ToUnicode')),
};

test('the good file passes every check', async () => {
  const report = await checkUa(good);
  assert.deepEqual(report.failed, []);
  assert.equal(report.checks, Object.keys(UA_CONDITIONS).length);
});

test('every condition the checker decides has a negative control', () => {
  assert.deepEqual(Object.keys(CONTROLS).sort(), Object.keys(UA_CONDITIONS).sort());
});

for (const [condition, breakIt] of Object.entries(CONTROLS)) {
  test(`negative control ${condition}: ${UA_CONDITIONS[condition as UaCondition]}`, async () => {
    const doc = await PDFDocument.load(good, { updateMetadata: false });
    breakIt(doc);
    const report = await checkUa(await doc.save({ useObjectStreams: true }));
    assert.deepEqual([...new Set(report.failed.map((finding) => finding.condition))], [condition], JSON.stringify(report.failed));
    assert.equal(report.passed, false);
  });
}
