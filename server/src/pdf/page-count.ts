// The page count of a PDF Chromium printed, read from its page tree root without parsing the
// file: Skia writes plain (uncompressed) dictionaries, so the catalog names the root and the root
// says /Count. Skia puts each key on a line of its own (`<</Type /Pages\n/Count 1`), so any PDF
// whitespace is taken between tokens; pdf-lib (the header stamp, the toolbox) puts /Kids before
// /Count. Anything else (a root inside an object stream, another writer) answers undefined and
// the caller parses the file.

const CATALOG = Buffer.from('/Type /Catalog');
const MAX_ROOT_BYTES = 1024 * 1024;

/** The /Count of the page tree root, or undefined when the file is not laid out as Skia writes it. */
export function countPages(pdf: Uint8Array): number | undefined {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const catalog = bytes.lastIndexOf(CATALOG);
  if (catalog < 0) return undefined;
  const root = /\/Pages\s+(\d+)\s+0\s+R/.exec(bytes.subarray(catalog, catalog + 200).toString('latin1'))?.[1];
  if (!root) return undefined;
  const object = bytes.lastIndexOf(Buffer.from(`\n${root} 0 obj`));
  if (object < 0) return undefined;
  const start = object + root.length + 7;
  const end = bytes.indexOf('endobj', start);
  // The root's dictionary: its /Kids are references, so it is short even for long documents.
  if (end < 0 || end - start > MAX_ROOT_BYTES) return undefined;
  const dict = bytes.subarray(start, end).toString('latin1');
  if (!/^\s*<<[\s\S]*\/Type\s*\/Pages\b/.test(dict)) return undefined;
  const count = /\/Count\s+(\d+)/.exec(dict)?.[1];
  return count === undefined ? undefined : Number(count);
}
