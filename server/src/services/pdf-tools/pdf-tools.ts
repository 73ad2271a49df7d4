// The story of the read-only PDF tools (docs/api.md#pdf-tools): inspect a PDF (free), list its
// attachments (a hybrid e-invoice's XML, free) and draw its pages as images (one document of the allowance per call, given back on failure), for a key's
// uploads and stored documents and for the admin window; thumbnails of stored documents, cached.
// Every input is opened by readPdfInput (qpdf, bounded) first; the work runs on the PDF worker
// threads, at most MAX_IN_FLIGHT calls at once, never on the event loop: a key's call past that is
// refused (503 renderer_busy), an admin-window read waits its turn in a bounded line (issue 39, item 8).

import { buffer } from 'node:stream/consumers';
import type { PdfInspection } from '../../pdf/inspect.ts';
import type { InspectCheck } from '../../pdf/inspect-checks.ts';
import type { AttachedFiles } from '../../pdf/attached-files.ts';
import { attachedFilesInWorker, inspectInWorker, rasterizeInWorker, zipInWorker } from '../../pdf/finisher.ts';
import { openPdf } from '../../pdf/pdf-open.ts';
import { selectPages } from '../../pdf/page-list.ts';
import { imageMime, type ImageFormat, type RasterImage, type RasterLimits } from '../../pdf/rasterize.ts';
import { RendererBusyError } from '../../render/errors.ts';
import { RenderSlots } from '../../render/render-slots.ts';
import { ApiError } from '../../errors.ts';
import type { DocumentsService } from '../accounts/documents.ts';
import type { Account } from '../accounts/keys.ts';
import type { Owner } from '../accounts/owner.ts';
import { readPdfInput, type PdfInput, type PdfInputBytes, type PdfInputDeps } from './pdf-input.ts';
import type { RenderedPdf, RenderService } from '../render/render.ts';

/** What one call may draw: a page up to 25 million pixels (A4 at about 500 dpi), 200 million in all, 500 pages, 120 s. */
export const IMAGE_LIMITS: RasterLimits = { pagePixels: 25_000_000, totalPixels: 200_000_000, pages: 500, timeoutMs: 120_000 };

/** Inspect and images calls worked on at once; the PDF worker has two threads, so more would only queue. */
const MAX_IN_FLIGHT = 4;
/**
 * The admin window's reads (a screen of thumbnails, Inspect) that may wait for one of those slots, and
 * for how long: a page of 50 documents draws its visible rows at once, and an admin read that fails only
 * because the screen asked for more than four is a defect, not back-pressure (docs/decisions.md).
 */
const ADMIN_QUEUE = 100;
const ADMIN_WAIT_MS = 60_000;
/** The admin window's calls share one line (no per-key fairness to keep among them). */
const ADMIN_TENANT = { id: 'admin', concurrency: Number.POSITIVE_INFINITY };
/** Thumbnails kept in memory (a small PNG each; stored documents never change, so an entry stays right until it is deleted). */
const THUMBNAIL_CACHE = 500;

export type ImagesOutput = 'zip' | 'json' | 'image';

export interface ImagesOptions {
  pages?: string;
  format: ImageFormat;
  quality?: number;
  dpi?: number;
  width?: number;
  output: ImagesOutput;
}

/** The call's answer: one image, a zip of them, or JSON listing them (base64). */
export interface ImagesResult {
  body: Uint8Array;
  contentType: string;
  /** For Content-Disposition. */
  filename: string;
  usage?: RenderedPdf['usage'];
  pages: number;
}

export interface PdfToolsDeps {
  documents: Pick<DocumentsService, 'open'>;
  /** What an input's streams may unpack to (PDF_STREAM_* settings). */
  decoded?: PdfInputDeps['decoded'];
  render: Pick<RenderService, 'produce'>;
}

export class PdfToolsService {
  private readonly slots = new RenderSlots(MAX_IN_FLIGHT, ADMIN_QUEUE, ADMIN_WAIT_MS);
  private readonly thumbnails = new Map<string, Uint8Array>();

  constructor(private readonly deps: PdfToolsDeps) {}

  /** What is inside a key's PDF (upload or stored document); not charged. */
  async inspect(input: PdfInput & { checks?: InspectCheck[] }, account: Account): Promise<PdfInspection> {
    return this.admitted(async () => inspected(await readPdfInput(input, account, '', this.deps), input.checks));
  }

  /** The files attached to a key's PDF, with the bytes of those that can be XML (a hybrid e-invoice's); not charged. */
  async attachedFiles(input: PdfInput, account: Account | undefined): Promise<AttachedFiles> {
    // No account: the admin window's upload, read as an upload (no key's documents to name).
    const opened = account
      ? readPdfInput(input, account, '', this.deps)
      : readPdfInput(input, ADMIN_READER, '', { documents: NO_DOCUMENTS, decoded: this.deps.decoded });
    return this.admitted(async () => attachedFilesInWorker((await opened).pdf, 'pdf'));
  }

  /** What is inside a PDF the admin names (an upload, or any key's stored document). */
  async inspectAsAdmin(input: PdfInput & { checks?: InspectCheck[] }): Promise<PdfInspection> {
    return this.admitted(async () => inspected(await this.adminInput(input), input.checks), 'wait');
  }

  /** A key's PDF drawn as images; one document of the allowance, given back when drawing fails. */
  async images(input: PdfInput, options: ImagesOptions, account: Account): Promise<ImagesResult> {
    return this.admitted(async () => {
      const opened = await readPdfInput(input, account, '', this.deps);
      let result: Omit<ImagesResult, 'usage'> | undefined;
      const produced = await this.deps.render.produce(account, { documents: 1, storage: undefined }, async () => {
        result = await drawn(opened, options);
        return result.body;
      });
      return { ...result!, usage: produced.usage };
    });
  }

  /** The same for the admin window: not charged. */
  async imagesAsAdmin(input: PdfInput, options: ImagesOptions): Promise<ImagesResult> {
    return this.admitted(async () => drawn(await this.adminInput(input), options), 'wait');
  }

  /** A stored document's page as a PNG `width` pixels wide; 404/410 as fetching the document. Not charged; the admin's (no owner) waits for a slot. */
  async thumbnail(owner: Owner, documentId: string, page: number, width: number): Promise<Uint8Array> {
    const { document, file } = await this.deps.documents.open(owner, documentId);
    const key = `${document.id}:${page}:${width}`;
    const cached = this.thumbnails.get(key);
    if (cached) {
      await file.close();
      return cached;
    }
    const original = await readWhole(file);
    const image = await this.admitted(
      async () => {
        const opened = await openPdf(original, { field: 'document_id', decoded: this.deps.decoded });
        const pages = String(Math.min(page, opened.pageCount));
        const [first] = await rasterizeInWorker({ pdf: opened.pdf, field: 'document_id', pages, format: 'png', width, limits: IMAGE_LIMITS });
        return first!.bytes;
      },
      owner === undefined ? 'wait' : 'refuse',
    );
    if (this.thumbnails.size >= THUMBNAIL_CACHE) this.thumbnails.delete(this.thumbnails.keys().next().value!);
    this.thumbnails.set(key, image);
    return image;
  }

  /** An admin's input: an upload, or any key's stored document, opened like a key's. */
  private async adminInput(input: PdfInput): Promise<PdfInputBytes> {
    if (input.document_id === undefined || input.pdf !== undefined)
      return readPdfInput(input, ADMIN_READER, '', { documents: NO_DOCUMENTS, decoded: this.deps.decoded });
    const { document, file } = await this.deps.documents.open(undefined, input.document_id);
    const original = await readWhole(file);
    const opened = await openPdf(original, { password: input.password, field: 'document_id', decoded: this.deps.decoded });
    return { ...opened, original, filename: document.filename ?? undefined };
  }

  /** Runs work in one of the MAX_IN_FLIGHT slots: 'refuse' fails at once when none is free (a key's call), 'wait' queues (the admin window's). */
  private async admitted<T>(work: () => Promise<T>, admission: 'refuse' | 'wait' = 'refuse'): Promise<T> {
    // No await between this check and acquire: a free slot is granted within acquire's first tick.
    if (admission === 'refuse' && this.slots.stats().busy >= MAX_IN_FLIGHT)
      throw new RendererBusyError(1, `${MAX_IN_FLIGHT} PDF tool calls are already running`);
    const release = await this.slots.acquire('interactive', ADMIN_TENANT);
    try {
      return await work();
    } finally {
      release();
    }
  }
}

/** readPdfInput's account for an admin's upload: only its key id is read, and only for a document_id, which adminInput handles itself. */
const ADMIN_READER = { keyId: '' } as Account;
const NO_DOCUMENTS: Pick<DocumentsService, 'open'> = {
  open: () => Promise.reject(new Error('an admin upload names no document')),
};

async function readWhole(file: Awaited<ReturnType<DocumentsService['open']>>['file']): Promise<Uint8Array> {
  try {
    return new Uint8Array(await buffer(file.createReadStream()));
  } finally {
    await file.close();
  }
}

function inspected(opened: PdfInputBytes, checks?: InspectCheck[]): Promise<PdfInspection> {
  return inspectInWorker(opened.pdf, 'pdf', opened.encrypted ? opened.original : undefined, checks);
}

async function drawn(opened: PdfInputBytes, options: ImagesOptions): Promise<Omit<ImagesResult, 'usage'>> {
  const { format, quality, dpi, width, pages, output } = options;
  if (output === 'image' && (pages ? selectPages(pages, opened.pageCount).indexes.length : opened.pageCount) !== 1)
    throw new ApiError('invalid_request', 'output "image" answers one page: name one in pages, or ask for a zip or json');
  const images = await rasterizeInWorker({ pdf: opened.pdf, field: 'pdf', pages, format, quality, dpi, width, limits: IMAGE_LIMITS });
  const base = (opened.filename ?? 'document').replace(/\.pdf$/i, '');
  const extension = format === 'jpeg' ? 'jpg' : format;
  const nameOf = (image: RasterImage) => `${base}-${String(image.page).padStart(3, '0')}.${extension}`;
  if (output === 'image') {
    return { body: images[0]!.bytes, contentType: imageMime(format), filename: nameOf(images[0]!), pages: 1 };
  }
  if (output === 'json') {
    const list = images.map((image) => ({
      page: image.page,
      width: image.width,
      height: image.height,
      content_type: imageMime(format),
      filename: nameOf(image),
      data: Buffer.from(image.bytes).toString('base64'),
    }));
    return { body: Buffer.from(JSON.stringify({ pages: list })), contentType: 'application/json', filename: `${base}.json`, pages: images.length };
  }
  // The one zip writer (pdf/transform/zip.ts, on the PDF worker): stored, as PNG, JPEG and WebP are compressed already.
  const zip = await zipInWorker(images.map((image) => ({ name: nameOf(image), data: image.bytes })));
  return { body: zip, contentType: 'application/zip', filename: `${base}-images.zip`, pages: images.length };
}
