// The attachments and e-invoice options of every output (render, merge, office) as zod schemas:
// they validate requests, fill defaults and feed the OpenAPI document. services/output/attachments-step.ts
// applies them; the limits below are checked there too, where stored documents' sizes are known.

import { z } from 'zod';
import { E_INVOICE_PROFILES } from '../einvoice/profiles.ts';
import { makeInvoiceSchema } from '../einvoice/make/invoice-json.ts';

export const AF_RELATIONSHIPS = ['Source', 'Data', 'Alternative', 'Supplement', 'Unspecified'] as const;

/** docs/api.md#attachments: at most this many files per document... */
export const MAX_ATTACHMENTS = 20;
/** ...each at most 5 MB once decoded (inline ones are bounded by the 6 MB request body first)... */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
/** ...and 10 MB together, the e-invoice XML included (stored documents can be larger than a body). */
export const MAX_ATTACHMENTS_TOTAL_BYTES = 10 * 1024 * 1024;
/** An invoice's XML, like HTML, up to 5 MB. */
export const MAX_INVOICE_XML_CHARS = 5 * 1024 * 1024;

const filename = z
  .string()
  .min(1)
  .max(200)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused on purpose (they break /F and file systems)
  .refine((name) => !/[\\/\u0000-\u001f\u007f]/.test(name) && name !== '.' && name !== '..', {
    message: 'must be a file name without a path, slashes or control characters',
  });

export const attachmentSchema = z
  .strictObject({
    filename: filename.describe('The name the file is listed under in the PDF (/UF, and /F in ASCII).'),
    content: z.base64().optional().describe('The file’s bytes, base64. Exactly one of content and document_id.'),
    document_id: z.string().min(1).max(100).optional().describe('A stored document of this key (doc_...) to attach instead of content.'),
    mime_type: z
      .string()
      .max(200)
      .regex(/^[A-Za-z0-9][\w!#$&^.+-]*\/[A-Za-z0-9][\w!#$&^.+-]*$/, { message: 'must be a MIME type such as "text/csv"' })
      .optional()
      .describe('Written as the file’s /Subtype. Default: application/pdf for a document_id, else application/octet-stream.'),
    description: z.string().min(1).max(1000).optional().describe('Shown by PDF readers beside the file (/Desc).'),
    relationship: z
      .enum(AF_RELATIONSHIPS)
      .default('Unspecified')
      .describe('How the file relates to the document (/AFRelationship): Source it was made from, Data behind it, an Alternative form, a Supplement.'),
  })
  .refine((file) => (file.content === undefined) !== (file.document_id === undefined), { message: 'needs exactly one of content and document_id' });

export const eInvoiceSchema = z
  .strictObject({
    profile: z.enum(E_INVOICE_PROFILES).describe('The Factur-X / ZUGFeRD profile the XML follows.'),
    xml: z.string().min(1).max(MAX_INVOICE_XML_CHARS).optional().describe('The invoice’s CII XML, checked against the profile’s XSD.'),
    syntax: z
      .enum(['CII', 'UBL'])
      .optional()
      .describe('The syntax the XML is written in from invoice or from_data: CII (default); UBL for XRECHNUNG only (attached as xrechnung.xml).'),
    invoice: makeInvoiceSchema
      .optional()
      .describe(
        'The invoice as JSON (docs/api.md#making-an-e-invoice): the XML is written from it (BASIC, EN 16931, EXTENDED, XRECHNUNG) and checked by our rules.',
      ),
    from_data: z
      .literal(true)
      .optional()
      .describe('The invoice is the template’s data (a template_id render): the readable PDF and the XML come from the same object.'),
  })
  .refine((value) => [value.xml, value.invoice, value.from_data].filter((field) => field !== undefined).length === 1, {
    message: 'needs exactly one of xml, invoice and from_data',
  })
  .refine((value) => value.syntax !== 'UBL' || (value.profile === 'XRECHNUNG' && value.xml === undefined), {
    message: 'syntax UBL is for the XRECHNUNG profile written from invoice or from_data (Factur-X is CII only)',
  })
  .describe(
    'Makes the PDF a Factur-X / ZUGFeRD / XRechnung e-invoice: the XML embedded as factur-x.xml (xrechnung.xml) with the Factur-X XMP schema, as PDF/A-3b unless pdf_a says 3u or 3a.',
  );

/** The fields every source that offers attachments spreads into its options. */
export const attachmentFields = {
  attachments: z
    .array(attachmentSchema)
    .max(MAX_ATTACHMENTS, { message: `must hold at most ${MAX_ATTACHMENTS} files` })
    .refine((files) => new Set(files.map((file) => file.filename)).size === files.length, { message: 'must not repeat a filename' })
    .optional()
    .describe(`Files embedded as associated files (/AF): at most ${MAX_ATTACHMENTS}, 5 MB each and 10 MB together.`),
  e_invoice: eInvoiceSchema.optional(),
};

export type AttachmentOption = z.output<typeof attachmentSchema>;
export type EInvoiceOption = z.output<typeof eInvoiceSchema>;
