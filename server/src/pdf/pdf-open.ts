// Opens a PDF a user gave us, once, in a bounded qpdf process: decrypts it with its password,
// repairs what qpdf can repair, and refuses what is hostile (past the page, object or image
// limits, a stream that unpacks past the decoded limits (stream-budget.ts), a damaged file qpdf cannot rebuild). What it
// answers is a plain, unencrypted PDF every later step can read; it knows nothing of accounts.

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasPdfHeader, notPdfMessage, PdfInputError } from './pdf-errors.ts';
import { runTool, toolComplaint } from './pdf-tool.ts';
import { checkDecodedSize, type DecodedLimits } from './stream-budget.ts';

/** What an input may be: bytes, pages, objects, and the pixels of any one image once decoded. */
export const PDF_INPUT_LIMITS = { bytes: 100 * 1024 * 1024, pages: 2000, objects: 1_000_000, imagePixels: 150_000_000 };

export interface OpenedPdf {
  /** The PDF decrypted and (where it needed it) repaired by qpdf. */
  pdf: Uint8Array;
  pageCount: number;
  /** Whether the input was encrypted (with or without a user password). */
  encrypted: boolean;
  /** qpdf's warnings when it had to repair the file. */
  repaired?: string;
}

export interface OpenOptions {
  password?: string;
  /** Names the input in errors (pdf, document_id, sources[2]). */
  field: string;
  limits?: Partial<typeof PDF_INPUT_LIMITS>;
  /** What its streams may unpack to (the server's PDF_STREAM_* settings); stream-budget.ts's defaults otherwise. */
  decoded?: Partial<DecodedLimits>;
}

interface PagesJson {
  pages?: { images?: { width?: number; height?: number }[] }[];
}

/** Decrypts, repairs and checks `bytes`; throws PdfInputError naming `field`. */
export async function openPdf(bytes: Uint8Array, options: OpenOptions): Promise<OpenedPdf> {
  const limits = { ...PDF_INPUT_LIMITS, ...options.limits };
  const { field } = options;
  if (bytes.byteLength > limits.bytes)
    throw new PdfInputError('too_large', field, `${field} is larger than the ${limits.bytes / 1024 / 1024} MB limit of PDF inputs`);
  if (!hasPdfHeader(bytes)) throw new PdfInputError('not_pdf', field, notPdfMessage(field));
  const dir = await mkdtemp(path.join(tmpdir(), 'quire-open-'));
  try {
    const input = path.join(dir, 'in.pdf');
    const output = path.join(dir, 'out.pdf');
    const passwordFile = path.join(dir, 'password');
    await writeFile(input, bytes);
    // The password goes through a file of this process's own (0600), never the command line others can read.
    await writeFile(passwordFile, options.password ?? '', { mode: 0o600 });
    const encryption = await runTool('qpdf', [`--password-file=${passwordFile}`, '--requires-password', input]);
    // --requires-password: 0 = a password is needed (the one given is wrong), 3 = encrypted but opens without, 2 = not encrypted.
    if (encryption.code === 0) {
      if (options.password === undefined) throw new PdfInputError('password_required', field, `${field} is encrypted: send its password in password`);
      throw new PdfInputError('password_incorrect', field, `the password does not open ${field}`);
    }
    // Counted before anything decodes a stream, qpdf's rewrite included: it unpacks (and packs again) a
    // chain such as [/FlateDecode /FlateDecode], which took it 20 s and more on a 3 KB bomb.
    const streams = path.join(dir, 'streams');
    await mkdir(streams);
    await checkDecodedSize(input, streams, field, { passwordFile, limits: options.decoded });
    await rm(streams, { recursive: true, force: true });
    const rewrite = await runTool('qpdf', [`--password-file=${passwordFile}`, '--decrypt', input, output]);
    if (rewrite.overLimit) throw new PdfInputError('too_large', field, `${field} unpacks past the limits of PDF inputs (a decompression bomb?)`);
    if (rewrite.code !== 0 && rewrite.code !== 3)
      throw new PdfInputError('unreadable', field, `${field} is damaged beyond repair: ${toolComplaint(rewrite.stderr, [input, output])}`);
    const pdf = new Uint8Array(await readFile(output));
    const pageCount = await checkPages(output, field, limits);
    checkObjects(pdf, field, limits.objects);
    return {
      pdf,
      pageCount,
      encrypted: encryption.code === 3 || encryption.code === 0,
      repaired: rewrite.code === 3 ? toolComplaint(rewrite.stderr, [input, output]) : undefined,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The page count, refusing a document past the page limit or with an image past the pixel limit. */
async function checkPages(file: string, field: string, limits: typeof PDF_INPUT_LIMITS): Promise<number> {
  const run = await runTool('qpdf', ['--json=2', '--json-key=pages', file]);
  if (run.overLimit) throw new PdfInputError('too_large', field, `${field} has more pages than can be read within the limits of PDF inputs`);
  if (run.code !== 0 && run.code !== 3)
    throw new PdfInputError('unreadable', field, `${field} has no readable page tree: ${toolComplaint(run.stderr, [file])}`);
  const { pages = [] } = JSON.parse(run.stdout.toString('utf8')) as PagesJson;
  if (pages.length === 0) throw new PdfInputError('unreadable', field, `${field} has no pages`);
  if (pages.length > limits.pages)
    throw new PdfInputError('too_large', field, `${field} has ${pages.length} pages; PDF inputs may have at most ${limits.pages}`);
  for (const [index, page] of pages.entries()) {
    for (const image of page.images ?? []) {
      const pixels = (image.width ?? 0) * (image.height ?? 0);
      if (pixels > limits.imagePixels)
        throw new PdfInputError(
          'too_large',
          field,
          `${field} page ${index + 1} has a ${image.width}×${image.height} image; images may have at most ${limits.imagePixels / 1_000_000} million pixels`,
        );
    }
  }
  return pages.length;
}

/** Refuses a file with more objects than the limit: qpdf's rewrite numbers them densely, so its trailer's /Size counts them. */
function checkObjects(pdf: Uint8Array, field: string, limit: number): void {
  const tail = Buffer.from(pdf.subarray(Math.max(0, pdf.byteLength - 64 * 1024))).toString('latin1');
  const sizes = [...tail.matchAll(/\/Size\s+(\d+)/g)];
  const size = Number(sizes.at(-1)?.[1] ?? 0);
  if (size - 1 > limit) throw new PdfInputError('too_large', field, `${field} has ${size - 1} objects; PDF inputs may have at most ${limit}`);
}
