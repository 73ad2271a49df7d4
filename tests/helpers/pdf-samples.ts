// PDFs with known contents for the PDF tools tests (inspect, images): pages of several sizes and
// a rotation, an image drawn at a known resolution, a filled form with a signature field,
// an attachment, bookmarks, Info and XMP with a PDF/A claim. Built with pdf-lib (the original,
// not the fork the server reads with), so the server's reader is checked against another writer.

import { createCanvas } from '@napi-rs/canvas';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AFRelationship, degrees, PDFDocument, PDFName, PDFString, StandardFonts, rgb } from 'pdf-lib';

const run = promisify(execFile);

/** What the sample holds, for the assertions. */
export const SAMPLE = {
  pages: [
    { width: 595.28, height: 841.89, rotation: 0 },
    { width: 612, height: 792, rotation: 90 },
    { width: 419.53, height: 595.28, rotation: 0 },
  ],
  image: { width: 300, height: 150, drawnWidth: 150, drawnHeight: 75, dpi: 144 },
  fields: { name: 'Ada', agree: true, colour: 'green', size: 'M' },
  attachment: { name: 'data.xml', mime: 'application/xml', bytes: Buffer.from('<invoice id="1"/>\n') },
  signer: 'Ada Lovelace',
  title: 'Inspect me',
  author: 'Quire tests',
};

/** A 300 x 150 PNG: left half pure red (255, 0, 0), right half pure blue. */
export function twoColourPng(): Uint8Array {
  const canvas = createCanvas(SAMPLE.image.width, SAMPLE.image.height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ff0000';
  context.fillRect(0, 0, 150, 150);
  context.fillStyle = '#0000ff';
  context.fillRect(150, 0, 150, 150);
  return canvas.toBuffer('image/png');
}

export async function samplePdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setTitle(SAMPLE.title);
  document.setAuthor(SAMPLE.author);
  const font = await document.embedFont(StandardFonts.Helvetica);
  const [a4, letter, a5] = SAMPLE.pages.map(({ width, height }) => document.addPage([width, height])) as [
    ReturnType<typeof document.addPage>,
    ReturnType<typeof document.addPage>,
    ReturnType<typeof document.addPage>,
  ];
  letter.setRotation(degrees(90));
  a4.drawText('First page', { x: 50, y: 780, size: 18, font, color: rgb(0, 0, 0) });
  const image = await document.embedPng(twoColourPng());
  a4.drawImage(image, { x: 100, y: 500, width: SAMPLE.image.drawnWidth, height: SAMPLE.image.drawnHeight });
  a5.drawText('Third page', { x: 50, y: 500, size: 18, font });
  const form = document.getForm();
  form.createTextField('name').setText(SAMPLE.fields.name);
  form.getTextField('name').addToPage(a4, { x: 50, y: 700, width: 200, height: 20 });
  const agree = form.createCheckBox('agree');
  agree.addToPage(a4, { x: 50, y: 660, width: 15, height: 15 });
  agree.check();
  const colour = form.createRadioGroup('colour');
  colour.addOptionToPage('red', a4, { x: 50, y: 630, width: 15, height: 15 });
  colour.addOptionToPage('green', a4, { x: 80, y: 630, width: 15, height: 15 });
  colour.select(SAMPLE.fields.colour);
  const size = form.createDropdown('size');
  size.addOptions(['S', 'M', 'L']);
  size.select(SAMPLE.fields.size);
  size.addToPage(a4, { x: 50, y: 600, width: 60, height: 20 });
  // A signature field with a signature dictionary (no real signature: inspect reports, it does not verify).
  const context = document.context;
  const signature = context.obj({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: 'ETSI.CAdES.detached',
    Name: PDFString.of(SAMPLE.signer),
    M: PDFString.of('D:20261126080000Z'),
  });
  const field = context.register(
    context.obj({ FT: 'Sig', T: PDFString.of('approval'), V: context.register(signature), Type: 'Annot', Subtype: 'Widget', Rect: [0, 0, 0, 0], P: a4.ref }),
  );
  form.acroForm.addField(field);
  await document.attach(SAMPLE.attachment.bytes, SAMPLE.attachment.name, {
    mimeType: SAMPLE.attachment.mime,
    afRelationship: AFRelationship.Data,
    description: 'the data',
  });
  // Two bookmarks: page 1, and page 3 under it.
  const outlines = context.nextRef();
  const first = context.nextRef();
  const child = context.nextRef();
  context.assign(child, context.obj({ Title: PDFString.of('Third'), Parent: first, Dest: [a5.ref, 'Fit'] }));
  context.assign(first, context.obj({ Title: PDFString.of('Start'), Parent: outlines, Dest: [a4.ref, 'Fit'], First: child, Last: child, Count: 1 }));
  context.assign(outlines, context.obj({ Type: 'Outlines', First: first, Last: first, Count: 2 }));
  document.catalog.set(PDFName.of('Outlines'), outlines);
  const xmp = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" pdfaid:part="2" pdfaid:conformance="B"/></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
  const metadata = context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' });
  document.catalog.set(PDFName.of('Metadata'), context.register(metadata));
  return document.save({ useObjectStreams: false, updateFieldAppearances: true });
}

/** The bytes encrypted by qpdf (AES-256) with a user password, so they cannot be opened without it. */
export async function encryptWithQpdf(pdf: Uint8Array, userPassword: string, restrictions: string[] = []): Promise<Uint8Array> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'quire-encrypt-'));
  try {
    await writeFile(path.join(folder, 'in.pdf'), pdf);
    await run('qpdf', ['--encrypt', userPassword, 'owner-secret', '256', ...restrictions, '--', path.join(folder, 'in.pdf'), path.join(folder, 'out.pdf')]);
    return new Uint8Array(await readFile(path.join(folder, 'out.pdf')));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** A PDF of `pages` blank pages of `size` points, built fast (the page bomb of the hostile tests). */
export async function blankPages(pages: number, size: [number, number] = [595, 842]): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  for (let i = 0; i < pages; i++) document.addPage(size);
  return document.save();
}
