// The PDF/UA option (options.pdf_ua) and the document language (options.lang) as zod schemas,
// spread into the render options: they validate requests, fill nothing by default and feed the
// OpenAPI document. The UA step (services/output/pdf-ua-step.ts) reads them.

import { z } from 'zod';

export const PDF_UA_LEVELS = ['PDF/UA-1'] as const;

export const pdfUaFields = {
  pdf_ua: z
    .enum(PDF_UA_LEVELS)
    .optional()
    .describe(
      'Extension: make the result an accessible PDF/UA-1 file (ISO 14289-1): printed tagged, then titled, language-marked, ' +
        'Quire’s own marks and images without alt text made artifacts, links given Contents, pdfuaid in the XMP; checked against ' +
        'the machine-checkable Matterhorn conditions before it is returned (X-PDF-UA). A file that fails is a 422 accessibility_failed ' +
        'listing each condition, uncharged; no title (<title> or metadata.title) is a 400. Composes with pdf_a (2a, 3a). Not with encrypt.',
    ),
  lang: z
    .string()
    .regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'must be a BCP 47 language tag such as "en" or "de-DE"')
    .optional()
    .describe('Extension: the document language (BCP 47, "de-DE") written as /Lang with pdf_ua. Default: the page’s <html lang>.'),
};
