// The uncharged part of office conversion: check a file (type, bytes, zip bomb), convert it on the
// warm LibreOffice pool in the caller's fair slot, draw its header and footer, apply the toolbox.
// Renders, batch items and merges call it for an `office` source; services/office/office.ts tells the
// story of POST /v1/convert/office on top of it. Its own module so render/render.ts can use it without a
// circle through office.ts (which uses RenderService).

import { inSpan } from '../../telemetry/spans.ts';
import { OfficeConversionError, OfficeUnavailableError } from '../../office/errors.ts';
import { checkOfficeFile, type OfficeKind } from '../../office/file-kinds.ts';
import { DEFAULT_OFFICE_OPTIONS, splitOfficeOptions, type OfficeOptions, type OfficeSource } from '../../office/office-options.ts';
import type { OfficeAvailability, OfficePool, OfficeStats } from '../../office/office-pool.ts';
import { finishPdf } from '../../pdf/finisher.ts';
import type { HeadsDrawer } from '../../render/renderer.ts';
import { RenderInputError } from '../../render/errors.ts';
import type { RenderPriority, Tenant } from '../../render/render-slots.ts';
import { drawPdfHeads, pdfHeadsOf } from './pdf-heads.ts';

export type { OfficeSource };

export interface OfficeFile {
  filename: string;
  bytes: Uint8Array;
}

/** A file checked and ready for LibreOffice. */
export interface CheckedFile {
  filename: string;
  bytes: Uint8Array;
  kind: OfficeKind;
}

/** Converts office files on the pool, uncharged; knows whether LibreOffice is there at all. */
export class OfficeConverter {
  /** `drawer` draws options.header and options.footer on the converted pages (the renderer). */
  constructor(
    private readonly availability: OfficeAvailability,
    readonly drawer?: HeadsDrawer,
  ) {}

  /** The pool's facts for /health, or why there is no LibreOffice. */
  stats(): OfficeStats | { available: false; reason: string } {
    return 'pool' in this.availability ? this.availability.pool.stats() : { available: false, reason: this.availability.unavailable };
  }

  /** Throws office_unavailable (501) when this server has no LibreOffice. */
  requireAvailable(): OfficePool {
    if ('pool' in this.availability) return this.availability.pool;
    throw new OfficeUnavailableError(this.availability.unavailable);
  }

  /** Checks a file before any charge: kind by name, bytes of that kind, no zip bomb. `where` prefixes the detail. */
  check(file: OfficeFile, where?: string): CheckedFile {
    this.requireAvailable();
    try {
      return { ...file, kind: checkOfficeFile(file.filename, file.bytes) };
    } catch (error) {
      throw prefixed(error, where);
    }
  }

  /** Checks an `office` source of a render, batch item or merge. */
  checkSource(source: OfficeSource, where = 'office'): CheckedFile {
    return this.check({ filename: source.filename, bytes: new Uint8Array(Buffer.from(source.file, 'base64')) }, where);
  }

  /** One checked file to PDF bytes (LibreOffice's export options; no toolbox). */
  async convert(file: CheckedFile, options: OfficeOptions, tenant?: Tenant, priority?: RenderPriority, where?: string): Promise<Uint8Array> {
    const { exportOptions, timeoutMs } = splitOfficeOptions(options);
    try {
      const converter = this.requireAvailable();
      return await inSpan('office.convert', { 'quire.office.kind': file.kind }, () =>
        converter.convert({
          bytes: file.bytes,
          kind: file.kind,
          baseName: file.kind === 'csv' ? sheetNameOf(file.filename) : undefined,
          options: exportOptions,
          timeoutMs,
          tenant,
          priority,
        }),
      );
    } catch (error) {
      if (error instanceof OfficeConversionError && error.code === 'page_range')
        throw new RenderInputError(`${where ?? 'options'}.page_ranges`, `${JSON.stringify(file.filename)}: ${error.message}`);
      throw prefixed(error, where, file.filename);
    }
  }

  /** An `office` source to finished PDF bytes (its own options: header and footer, toolbox), for renders and batch items. */
  async convertSource(source: OfficeSource, tenant?: Tenant, priority?: RenderPriority): Promise<Uint8Array> {
    const options = source.options ?? DEFAULT_OFFICE_OPTIONS;
    const pdf = await this.convert(this.checkSource(source), options, tenant, priority, 'office.options');
    const { heads, finish, timeoutMs } = splitOfficeOptions(options);
    const request = pdfHeadsOf(heads, { field: 'office.options', data: source.data, title: titleOf(source.filename) });
    return request ? drawPdfHeads(this.headsDrawer(), pdf, request, { timeoutMs, finish, tenant, priority }) : finishPdf(pdf, finish);
  }

  headsDrawer(): HeadsDrawer {
    if (!this.drawer) throw new Error('this office converter was made without a renderer to draw headers and footers');
    return this.drawer;
  }
}

/** report.docx -> report (the title variable of its header and footer when the document has no title of its own). */
export function titleOf(filename: string): string {
  return pdfNameOf(filename).replace(/\.pdf$/, '');
}

/**
 * sales.csv -> sales: LibreOffice names a CSV's one sheet after its file, and prints that name in
 * the page header, so the file it opens is named after the upload, not "input". Characters a sheet
 * or file name cannot hold become _; no name left gives Sheet1, as a new spreadsheet's.
 */
export function sheetNameOf(filename: string): string {
  const stem = (filename.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are replaced on purpose (no file or sheet name holds them)
  const clean = stem.replace(/[\u0000-\u001f:\\/?*[\]]/g, '_').replace(/^[.']+|'+$/g, '');
  // 60 characters stay under a file name's 255 bytes in any UTF-8.
  const short = Array.from(clean).slice(0, 60).join('');
  return short === '' ? 'Sheet1' : short;
}

/** report.docx -> report.pdf */
export function pdfNameOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() || 'document';
  return `${base.replace(/\.[A-Za-z0-9]+$/, '')}.pdf`;
}

/** The file's name (and its place in a larger request) in front of a conversion error's sentence. */
function prefixed(error: unknown, where: string | undefined, filename?: string): unknown {
  if (!(error instanceof OfficeConversionError)) return error;
  const named = filename && !error.message.includes(JSON.stringify(filename)) ? `${JSON.stringify(filename)}: ${error.message}` : error.message;
  return new OfficeConversionError(error.code, where ? `${where}: ${named}` : named);
}
