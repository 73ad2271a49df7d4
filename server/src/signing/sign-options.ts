// The `sign` option every source takes (docs/api.md#signing): which certificate, the texts readers
// show, the PAdES level and an optional visible box. Spread into the render, merge and office
// option schemas as signFields; the step (services/signing/sign-step.ts) reads it.

import { z } from 'zod';

const text = (what: string) => z.string().min(1).max(200).optional().describe(what);

export const visibleSignatureSchema = z
  .strictObject({
    page: z.int().min(1).max(100_000).optional().describe('1-based page of the box. Default: the last page.'),
    x: z.number().min(0).max(14_400).describe('Left edge of the box, in points from the page’s left.'),
    y: z.number().min(0).max(14_400).describe('Bottom edge of the box, in points from the page’s bottom.'),
    width: z.number().min(10).max(14_400),
    height: z.number().min(10).max(14_400),
    text: z
      .string()
      .max(500)
      .optional()
      .describe(
        'Lines drawn in the box (Latin-1 letters; others show as ?). Default: the signer’s name, the reason and the date. Not with pdf_a: the box’s font is not embedded.',
      ),
  })
  .describe('A box on a page that shows the signature. Left out: the signature is invisible (a field with an empty rectangle).');

export const signOptionsSchema = z
  .strictObject({
    certificate_id: z.string().min(1).max(100).describe('A certificate imported for this key or granted to it (GET /v1/certificates).'),
    level: z
      .enum(['B-B', 'B-T'])
      .default('B-B')
      .describe('PAdES baseline level. B-B: signing-certificate-v2 in the signed attributes. B-T: also an RFC 3161 timestamp from the operator’s TSA_URL.'),
    reason: text('Why the document is signed (/Reason).'),
    location: text('Where it was signed (/Location).'),
    contact: text('How to reach the signer (/ContactInfo).'),
    visible: visibleSignatureSchema.optional(),
  })
  .describe(
    'Extension: sign the finished PDF (PAdES, an incremental update after every other step, so a PDF/A stays PDF/A). Not with encrypt (400): sign first, then nothing may rewrite the file.',
  );

export type SignOptions = z.output<typeof signOptionsSchema>;

export const signFields = { sign: signOptionsSchema.optional() };
