// Removes what a PDF could run or open by itself: document JavaScript, open and additional
// actions, and JavaScript, launch, import, submit and rendition actions on links and fields.
// Plain links (URI, GoTo) stay. Runs on the PDF worker thread after a flatten.

import { PDFDict, PDFDocument, PDFName, type PDFRef } from '@cantoo/pdf-lib';

const ACTIVE = new Set(['/JavaScript', '/Launch', '/ImportData', '/SubmitForm', '/ResetForm', '/Rendition', '/GoToE', '/Movie', '/Sound', '/RichMediaExecute']);

/** The document without JavaScript and other active actions. */
export async function scrubActions(pdf: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const isActive = (value: unknown) => value instanceof PDFDict && ACTIVE.has(String(value.get(PDFName.of('S'))));
  const resolve = (value: unknown) => (value && typeof value === 'object' && 'objectNumber' in value ? doc.context.lookup(value as never) : value);
  const active: PDFRef[] = [];
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    object.delete(PDFName.of('AA'));
    if (isActive(resolve(object.get(PDFName.of('A'))))) object.delete(PDFName.of('A'));
    // Removed whole (with any action chained by Next), so no script text is left in the file either.
    if (isActive(object)) active.push(ref);
  }
  const { catalog } = doc;
  catalog.delete(PDFName.of('AA'));
  const open = resolve(catalog.get(PDFName.of('OpenAction')));
  if (isActive(open)) catalog.delete(PDFName.of('OpenAction'));
  const names = resolve(catalog.get(PDFName.of('Names')));
  if (names instanceof PDFDict) names.delete(PDFName.of('JavaScript'));
  for (const ref of active) doc.context.delete(ref);
  return doc.save();
}
