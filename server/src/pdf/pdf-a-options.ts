// The PDF/A option (options.pdf_a) as a zod schema, spread into the render, merge and office
// options, and the facts of each level that the PDF/A step, its conformance checker and the
// request checks share: part, conformance letter, what attachments the level allows.

import { z } from 'zod';

/** The levels offered, by ISO 19005 part and conformance (docs/decisions.md, "PDF/A"). */
export const PDF_A_LEVELS = ['PDF/A-1b', 'PDF/A-2b', 'PDF/A-2u', 'PDF/A-2a', 'PDF/A-3b', 'PDF/A-3u', 'PDF/A-3a'] as const;
export type PdfALevel = (typeof PDF_A_LEVELS)[number];

// The short spellings ("2b") are accepted too: the office route has always taken the long ones.
const SHORT_LEVELS = PDF_A_LEVELS.map((level) => level.slice('PDF/A-'.length));

export const pdfAFields = {
  pdf_a: z
    .enum([...PDF_A_LEVELS, ...SHORT_LEVELS] as [string, ...string[]])
    .optional()
    .describe(
      'Extension: make the result an archival PDF/A file (ISO 19005) as its last step before signing: OutputIntent with an sRGB profile, ' +
        'XMP identification agreeing with the document information, file identifier; headers, footers, metadata, outline and watermark ' +
        'compose with it. "PDF/A-2b" (or "2b"), 2u, 3b, 3u; 2a and 3a need tagged: true; 1b only for pages without transparency. ' +
        'Every file is checked before it is returned (X-PDF-Conformance); one that fails a rule is a 422 conformance_failed, uncharged. ' +
        'Not with encrypt.',
    ),
};

export interface PdfALevelFacts {
  level: PdfALevel;
  part: 1 | 2 | 3;
  conformance: 'A' | 'B' | 'U';
}

/** The level an option names (either spelling), or undefined when none is asked. */
export function pdfALevelOf(value: unknown): PdfALevelFacts | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const level = (value.startsWith('PDF/A-') ? value : `PDF/A-${value}`) as PdfALevel;
  if (!PDF_A_LEVELS.includes(level)) return undefined;
  return { level, part: Number(level[6]) as 1 | 2 | 3, conformance: level[7]!.toUpperCase() as 'A' | 'B' | 'U' };
}

/** Whether the level asks for Unicode mappings of every font (u, and a which includes it). */
export function needsUnicode(facts: PdfALevelFacts): boolean {
  return facts.conformance !== 'B';
}

/** Whether the level asks for a tagged, logically structured file. */
export function needsTags(facts: PdfALevelFacts): boolean {
  return facts.conformance === 'A';
}

/** Whether files of any kind may be embedded (PDF/A-3); PDF/A-2 allows only PDF/A files, PDF/A-1 none. */
export function allowsAnyAttachment(facts: PdfALevelFacts): boolean {
  return facts.part === 3;
}
