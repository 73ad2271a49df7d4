// The PDF/A writer and its conformance checker without a browser: files made with pdf-lib, made
// archival, then broken on purpose (negative controls) so each rule is seen failing; the XMP
// contract with the e-invoice step (foreign descriptions kept); the sRGB profile's header; the
// step's refusals and header shape. Independent readers: qpdf and pdfinfo (tests/helpers/pdf-a-tools.ts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, PDFName, PDFString, StandardFonts, getDefaultSRGBProfile } from '@cantoo/pdf-lib';
import { checkConformance } from '../../../server/src/pdf/conformance.ts';
import { makeArchival } from '../../../server/src/pdf/pdf-a.ts';
import { foreignDescriptions } from '../../../server/src/pdf/pdf-a-xmp.ts';
import { conformanceHeader, PdfAStep } from '../../../server/src/services/output/pdf-a-step.ts';
import { ApiError } from '../../../server/src/errors.ts';
import { archivalParts, fontsOf, pdfaIdOf } from '../../helpers/pdf-a-tools.ts';

async function letter(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 200]).drawText('Archived letter', { x: 20, y: 100, size: 14, font });
  doc.setTitle('Letter');
  doc.setProducer('Tests');
  return doc.save();
}

const failedRules = async (bytes: Uint8Array, level: string) => (await checkConformance(bytes, level)).failed.map((entry) => entry.rule);

async function edit(bytes: Uint8Array, change: (doc: PDFDocument) => void | Promise<void>, useObjectStreams = true): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  await change(doc);
  return doc.save({ useObjectStreams });
}

test('a pdf-lib letter made PDF/A at every level passes the checker; qpdf and pdfinfo read the parts', async () => {
  for (const level of ['PDF/A-1b', 'PDF/A-2b', 'PDF/A-2u', 'PDF/A-3b', 'PDF/A-3u']) {
    const archival = await makeArchival(await letter(), level);
    assert.deepEqual(await failedRules(archival, level), [], level);
    assert.equal(pdfaIdOf(archival).part, level[6]);
    assert.equal(archivalParts(archival).intents[0]!.n, 3);
    // The unembedded Helvetica became an embedded Liberation Sans.
    assert.ok(fontsOf(archival).every((font) => font.embedded));
  }
});

test('negative controls: each broken file fails its rule', async () => {
  const good = await makeArchival(await letter(), 'PDF/A-2b');
  assert.deepEqual(await failedRules(await letter(), 'PDF/A-2b'), [
    'file-id',
    'xmp-metadata',
    'xmp-identification',
    'xmp-info-agreement',
    'output-intent',
    'output-intent-profile',
    'fonts-embedded',
  ]);
  assert.deepEqual(await failedRules(good, 'PDF/A-3b'), ['xmp-identification'], 'a 2b file is not 3b');
  const retitled = await edit(good, (doc) => doc.setTitle('Another title'));
  assert.deepEqual(await failedRules(retitled, 'PDF/A-2b'), ['xmp-info-agreement']);
  const scripted = await edit(good, (doc) => {
    doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') }));
  });
  assert.deepEqual(await failedRules(scripted, 'PDF/A-2b'), ['no-javascript']);
  const launching = await edit(good, (doc) => {
    doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ Type: 'Action', S: 'Launch', F: PDFString.of('calc.exe') }));
  });
  assert.deepEqual(await failedRules(launching, 'PDF/A-2b'), ['no-forbidden-actions']);
  const lzw = await edit(good, (doc) => {
    doc.context.register(doc.context.stream('x', { Filter: 'LZWDecode' }));
  });
  assert.deepEqual(await failedRules(lzw, 'PDF/A-2b'), ['no-lzw']);
  const external = await edit(good, (doc) => {
    doc.context.register(doc.context.stream('', { F: PDFString.of('outside.bin') }));
  });
  assert.deepEqual(await failedRules(external, 'PDF/A-2b'), ['no-external-streams']);
  // pdf-lib itself refuses to encrypt a PDF/A file: an Encrypt entry is written by hand.
  const encrypted = await edit(good, (doc) => {
    doc.context.trailerInfo.Encrypt = doc.context.register(doc.context.obj({ Filter: 'Standard', V: 4, R: 4 }));
  });
  assert.ok((await failedRules(encrypted, 'PDF/A-2b')).includes('no-encryption'));
  const withoutIntent = await edit(good, (doc) => {
    doc.catalog.delete(PDFName.of('OutputIntents'));
  });
  assert.deepEqual(await failedRules(withoutIntent, 'PDF/A-2b'), ['output-intent', 'output-intent-profile']);
  const tail = new Uint8Array([...good, ...Buffer.from('trailing garbage')]);
  assert.deepEqual(await failedRules(tail, 'PDF/A-2b'), ['file-trailer']);
});

test('attachments: PDF/A-3 makes an embedded file an associated one; PDF/A-2 refuses a non-PDF/A file, PDF/A-1 any', async () => {
  const attached = await edit(await letter(), (doc) => doc.attach(Buffer.from('<Invoice/>'), 'invoice.xml', { mimeType: 'text/xml' }));
  const archival = await makeArchival(attached, 'PDF/A-3b');
  assert.deepEqual(await failedRules(archival, 'PDF/A-3b'), []);
  assert.ok(archivalParts(archival).catalog['/AF'], 'catalog /AF');
  // Attached after the conversion without a MIME type: the rule fails.
  const noMime = await edit(archival, (doc) => doc.attach(Buffer.from('x'), 'late.txt', {}));
  assert.deepEqual(await failedRules(noMime, 'PDF/A-3b'), ['embedded-files']);
  assert.deepEqual(await failedRules(await makeArchival(attached, 'PDF/A-2b'), 'PDF/A-2b'), ['embedded-files']);
  assert.deepEqual(await failedRules(await makeArchival(attached, 'PDF/A-1b'), 'PDF/A-1b'), ['embedded-files']);
});

test('the XMP contract: descriptions in namespaces we do not own survive, ours are rewritten once', async () => {
  const foreign =
    '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    '<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>1</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>' +
    '<rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#" fx:DocumentType="INVOICE"><fx:DocumentFileName>factur-x.xml</fx:DocumentFileName></rdf:Description>' +
    '<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#">' +
    '<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource"><pdfaSchema:prefix>fx</pdfaSchema:prefix></rdf:li><rdf:li><rdf:Description><pdfaSchema:prefix>nested</pdfaSchema:prefix></rdf:Description></rdf:li></rdf:Bag></pdfaExtension:schemas></rdf:Description>' +
    '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>';
  const kept = foreignDescriptions(foreign);
  assert.equal(kept.descriptions.length, 2);
  assert.match(kept.descriptions[0]!, /fx:DocumentFileName/);
  assert.match(kept.descriptions[1]!, /<pdfaSchema:prefix>nested<\/pdfaSchema:prefix><\/rdf:Description><\/rdf:li>/);
  // The packet claims PDF/A-1: pdf-lib then refuses object streams on save.
  const withXmp = await edit(
    await letter(),
    (doc) => {
      doc.catalog.set(PDFName.of('Metadata'), doc.context.register(doc.context.stream(foreign, { Type: 'Metadata', Subtype: 'XML' })));
    },
    false,
  );
  const archival = await makeArchival(withXmp, 'PDF/A-3b');
  const { xmp, part } = pdfaIdOf(archival);
  assert.equal(part, '3');
  assert.equal(xmp.match(/pdfaid:part/g)?.length, 2, 'one pdfaid:part element');
  assert.match(xmp, /fx:DocumentType="INVOICE"/);
  assert.match(xmp, /<pdfaExtension:schemas>/);
  assert.deepEqual(await failedRules(archival, 'PDF/A-3b'), []);
});

test('the sRGB profile pdf-lib ships: an ICC v2 RGB display profile with an XYZ connection space', () => {
  const profile = Buffer.from(getDefaultSRGBProfile());
  assert.equal(profile.readUInt32BE(0), profile.length);
  assert.equal(profile[8], 2);
  assert.equal(profile.subarray(12, 24).toString('latin1'), 'mntrRGB XYZ ');
  assert.equal(profile.subarray(36, 40).toString('latin1'), 'acsp');
  assert.match(profile.toString('latin1'), /sRGB IEC61966-2\.1/);
});

test('the step refuses what cannot compose, naming the field; the header has its documented shape', () => {
  const step = new PdfAStep();
  const context = { account: {} as never, field: 'options' };
  const refusal = (options: object) => {
    try {
      step.check(options, context);
    } catch (error) {
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 400);
      return error.detail;
    }
    return undefined;
  };
  assert.match(refusal({ pdf_a: '2b', encrypt: {} }) ?? '', /options\.encrypt/);
  assert.match(
    refusal({ pdf_a: '2b', attachments: [{ filename: 'a.txt', content: 'YQ==' }] }) ?? '',
    /options\.attachments.*PDF\/A-2 embeds only PDF\/A files/,
  );
  assert.match(refusal({ pdf_a: '1b', attachments: [{ filename: 'a.txt', content: 'YQ==' }] }) ?? '', /PDF\/A-1 allows no embedded files/);
  assert.equal(refusal({ pdf_a: '3b', attachments: [{ filename: 'a.txt', content: 'YQ==' }] }), undefined);
  assert.match(refusal({ pdf_a: 'PDF/A-2u', e_invoice: {} }) ?? '', /options\.pdf_a PDF\/A-2u cannot carry options\.e_invoice/);
  assert.equal(refusal({ e_invoice: {} }), undefined, 'an e-invoice alone is PDF/A-3b');
  assert.match(refusal({ pdf_a: '2a' }) ?? '', /tagged/);
  assert.equal(refusal({ pdf_a: '2a', tagged: true }), undefined);
  assert.equal(step.wanted({ e_invoice: {} }), true);
  assert.equal(step.wanted({}), false);
  const report = { level: 'PDF/A-3b', checker: 'quire' as const, rules: 21, failed: [], passed: true };
  assert.equal(conformanceHeader(report), 'PDF/A-3b; rules=21; failed=0');
  assert.equal(conformanceHeader({ ...report, verapdf: { ran: true, passed: true, detail: 'PASS' } }), 'PDF/A-3b; rules=21; failed=0; verapdf=pass');
});
