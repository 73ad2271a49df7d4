// Wire schema of POST /v1/pdf/merge: sources in order (a stored document, an uploaded PDF, or a
// render request), each optionally cut to page_ranges, and the post-processing of the result.

import { z } from 'zod';
import { signFields } from '../../signing/sign-options.ts';
import { idPattern } from '../../ids.ts';
import { finishFields } from '../../pdf/finish-options.ts';
import { attachmentFields } from '../../pdf/attachment-options.ts';
import { pdfAFields } from '../../pdf/pdf-a-options.ts';
import { pdfUaFields } from '../../pdf/ua/ua-options.ts';
import { foreignHeadsFields, runningSchema } from '../../render/header-options.ts';
import { pageListSchema } from '../../pdf/page-list.ts';
import { tocSchema } from '../../render/toc-options.ts';
import { MAX_MERGE_SOURCES, type MergeInput } from '../../services/merge/merge.ts';
import { RENDERED_SOURCE_FIELDS, SOURCE_FIELDS } from '../../services/render/source-rules.ts';
import { filenameSchema, refuseMisplacedOptions, renderFields, sourceFields } from './render.ts';
import { officeSourceSchema } from './office.ts';
import { pdfInputFields } from './pdf-input.ts';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const mergeSourceSchema = z
  .strictObject({
    document_id: z.string().regex(idPattern('doc'), { message: 'must look like doc_<id>' }).optional().describe('A stored document of this key.'),
    pdf: z
      .string()
      .min(1)
      .regex(BASE64, { message: 'must be base64 (no data: prefix, no line breaks)' })
      .optional()
      .describe(
        'An uploaded PDF, base64. Opened as every PDF input is (docs/api.md#pdf-inputs): not a PDF or damaged 422 pdf_unreadable, encrypted 422 password_required, past the limits 413, each naming the source.',
      ),
    password: pdfInputFields.password,
    ...sourceFields,
    office: officeSourceSchema.optional(),
    options: renderFields.options.optional().describe('PdfOptions of this source’s render (not encrypt: encrypt the merged result with options.encrypt).'),
    page_ranges: pageListSchema('Only these pages of this source. Default: all.').optional(),
    header_footer: z
      .boolean()
      .optional()
      .describe('false: the merge’s header and footer leave this source’s pages as they are (a cover, or a PDF that has its own). Default: true.'),
    title: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('Extension: this source’s chapter title in options.toc and its bookmark. Default: the PDF’s title, else its file name, else "Document N".'),
  })
  .superRefine((source, ctx) => {
    const given = (['document_id', 'pdf', ...SOURCE_FIELDS] as const).filter((field) => source[field] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: given.length === 0 ? 'needs one of document_id, pdf, html, url, markdown, template_id or office' : `takes only one of ${given.join(' and ')}`,
        input: undefined,
      });
      return;
    }
    const rendered = (RENDERED_SOURCE_FIELDS as readonly string[]).includes(given[0]!);
    if (source.password !== undefined && given[0] !== 'pdf' && given[0] !== 'document_id')
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'is only for pdf and document_id sources', input: undefined });
    for (const field of ['data', 'options', 'template_version'] as const) {
      if (!rendered && source[field] !== undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: 'is only for html, url, markdown and template_id sources', input: undefined });
    }
    // These apply to the merged document only: a source's own would be undone by the merge.
    for (const [field, what] of [
      ['encrypt', 'encrypt the merged document with options.encrypt'],
      ['pdf_a', 'make the merged document archival with options.pdf_a'],
      ['pdf_ua', 'make the merged document accessible with options.pdf_ua'],
      ['attachments', 'attach files to the merged document with options.attachments'],
      ['e_invoice', 'make the merged document the e-invoice with options.e_invoice'],
      // A part's signature could not survive the merge.
      ['sign', 'sign the merged document with options.sign'],
    ] as const) {
      if (source.options?.[field] !== undefined)
        ctx.addIssue({ code: 'custom', path: ['options', field], message: `is not for a source: ${what}`, input: undefined });
    }
    refuseMisplacedOptions(source, ctx);
  })
  .describe('Exactly one of document_id, pdf, html, url, markdown, template_id or office.');

export const mergeOptionsSchema = z
  .strictObject({
    ...finishFields,
    ...attachmentFields,
    ...pdfAFields,
    // A merge of tagged sources keeps each one's structure tree (rendered sources are printed tagged).
    ...pdfUaFields,
    header: runningSchema
      .optional()
      .describe(
        'Extension: the header of every source that sets none of its own (as options.header of a render): rendered sources, office files, uploaded and stored PDFs (on those, header_footer_fit says how it makes room; a source with header_footer: false is left as it is). page and pages count the merged document (every source’s kept pages); document_page and document_pages count within the source.',
      ),
    footer: runningSchema.optional().describe('Extension: as header, below the body.'),
    ...foreignHeadsFields,
    ...signFields,
    toc: z
      .strictObject({ title: tocSchema.shape.title })
      .optional()
      .describe(
        'Extension: a table of contents first, each source a chapter (its title, else the PDF’s title, else its file name) with the merged page it starts on, ' +
          'linked to it; bookmarks one per chapter (outline on). The footers’ page numbers count the TOC’s pages too.',
      ),
    receipt: z
      .boolean()
      .optional()
      .describe(
        'Extension: keep a receipt of the merge as a whole (its sources, options in force, timings, pages); a rendered source keeps its own with its own options.receipt.',
      ),
  })
  .describe(
    'Applied to the merged document. outline: one bookmark per source (its title, else "Document N") opening its first page, with the ' +
      'source’s own bookmarks (a render with outline: true) nested under it where their pages were kept.',
  );

export const mergeRequestSchema = z
  .strictObject({
    sources: z.array(mergeSourceSchema).min(1).max(MAX_MERGE_SOURCES).describe(`The documents to join, in order: at most ${MAX_MERGE_SOURCES}.`),
    options: mergeOptionsSchema.optional(),
    store: renderFields.store.optional(),
    filename: filenameSchema.optional(),
  })
  .transform(
    (body): MergeInput => ({
      ...body,
      sources: body.sources.map(({ pdf, ...source }) =>
        pdf !== undefined
          ? {
              pdf: new Uint8Array(Buffer.from(pdf, 'base64')),
              password: source.password,
              page_ranges: source.page_ranges,
              header_footer: source.header_footer,
              title: source.title,
            }
          : (source as MergeInput['sources'][number]),
      ),
    }),
  );
