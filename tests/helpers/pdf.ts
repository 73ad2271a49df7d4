// Reads what a PDF really contains: page count, page sizes in points, text per page (pdfjs-dist)
// and the fonts embedded in it (pdf-lib's object tree), for assertions in tests.

// pdfjs and pdf-lib load on first use, not with the module: through tsx they cost ~1.5 s of CPU
// per test process, and a file may import this for a helper that reads no PDF (readOpened).
const pdfjs = () => import('pdfjs-dist/legacy/build/pdf.mjs');
const pdfLib = () => import('pdf-lib');

export interface PdfPage {
  width: number;
  height: number;
  text: string;
}

export interface PdfFont {
  /** Base font name without the subset tag (e.g. "LiberationSans"), or "" for unnamed Type 3. */
  name: string;
  subtype: string;
}

export interface InspectedPdf {
  pages: PdfPage[];
  fonts: PdfFont[];
  text: string;
}

export async function inspectPdf(bytes: Uint8Array | ArrayBuffer): Promise<InspectedPdf> {
  const data = new Uint8Array(bytes instanceof ArrayBuffer ? bytes : bytes.slice());
  if (Buffer.from(data.subarray(0, 5)).toString('latin1') !== '%PDF-') throw new Error('not a PDF');
  const { getDocument } = await pdfjs();
  const document = await getDocument({ data: data.slice(), useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  const pages: PdfPage[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const [x0, y0, x1, y1] = page.view as [number, number, number, number];
    const content = await page.getTextContent();
    const text = content.items
      .map((item) => ('str' in item ? item.str : ''))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    pages.push({ width: round(x1 - x0), height: round(y1 - y0), text });
  }
  await document.destroy();
  return { pages, fonts: await embeddedFonts(data), text: pages.map((page) => page.text).join('\n') };
}

async function embeddedFonts(data: Uint8Array): Promise<PdfFont[]> {
  const { PDFDict, PDFDocument, PDFName } = await pdfLib();
  const pdf = await PDFDocument.load(data, { updateMetadata: false });
  const fonts: PdfFont[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.of('Type'))?.toString() !== '/Font') continue;
    const subtype = object.get(PDFName.of('Subtype'))?.toString().slice(1) ?? '';
    if (subtype === 'CIDFontType2' || subtype === 'CIDFontType0') continue; // the descendant of a Type0 font
    const base = object.get(PDFName.of('BaseFont'))?.toString().slice(1) ?? '';
    fonts.push({ name: base.replace(/^[A-Z]{6}\+/, ''), subtype });
  }
  return fonts;
}

/** Whether any Type 3 font in the PDF draws its glyphs with images (how colour emoji are embedded). */
export async function hasBitmapGlyphs(bytes: Uint8Array): Promise<boolean> {
  const { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } = await pdfLib();
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.of('Subtype'))?.toString() !== '/Type3') continue;
    const resources = object.lookup(PDFName.of('Resources'));
    if (resources instanceof PDFDict && resources.get(PDFName.of('XObject'))) return true;
    const procs = object.lookup(PDFName.of('CharProcs'));
    if (procs instanceof PDFDict) {
      for (const [, ref] of procs.entries()) {
        const stream = ref instanceof PDFRef ? pdf.context.lookup(ref) : ref;
        if (stream instanceof PDFRawStream && /\bBI\b|\bDo\b/.test(Buffer.from(stream.contents).toString('latin1'))) return true;
      }
    }
  }
  return false;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Every byte of a PDF opened from a store (stores/pdf-blobs.ts PdfReader), then closes it. */
export async function readOpened(reader: { createReadStream(): AsyncIterable<unknown>; close(): Promise<void> }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of reader.createReadStream()) chunks.push(chunk as Buffer);
  } finally {
    await reader.close();
  }
  return Buffer.concat(chunks);
}

/** The images a PDF draws (image XObjects), with their pixel sizes. */
export async function embeddedImages(bytes: Uint8Array): Promise<{ width: number; height: number }[]> {
  const { PDFDocument, PDFName, PDFRawStream } = await pdfLib();
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const images: { width: number; height: number }[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream) || object.dict.get(PDFName.of('Subtype'))?.toString() !== '/Image') continue;
    images.push({ width: Number(object.dict.get(PDFName.of('Width'))?.toString()), height: Number(object.dict.get(PDFName.of('Height'))?.toString()) });
  }
  return images;
}
