// The page count of a PDF Chromium printed, read from its page tree root without parsing the
// file: Skia writes plain (uncompressed) dictionaries, so the catalog names the root and the root
// says /Count. Skia puts each key on a line of its own (`<</Type /Pages\n/Count 1`), so any PDF
// whitespace is taken between tokens. Anything else (another writer) answers undefined and the
// caller parses the file.

const CATALOG = Buffer.from('/Type /Catalog');

/** The /Count of the page tree root, or undefined when the file is not laid out as Skia writes it. */
export function countPages(pdf: Uint8Array): number | undefined {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const catalog = bytes.lastIndexOf(CATALOG);
  if (catalog < 0) return undefined;
  const root = /\/Pages\s+(\d+)\s+0\s+R/.exec(bytes.subarray(catalog, catalog + 200).toString('latin1'))?.[1];
  if (!root) return undefined;
  const object = bytes.lastIndexOf(Buffer.from(`\n${root} 0 obj`));
  if (object < 0) return undefined;
  const count = /^\s*<<\s*\/Type\s*\/Pages\s*\/Count\s+(\d+)/.exec(bytes.subarray(object + root.length + 7, object + root.length + 80).toString('latin1'))?.[1];
  return count === undefined ? undefined : Number(count);
}
