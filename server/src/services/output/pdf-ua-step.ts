// The PDF/UA step of every output (order 15: after attachments and the e-invoice, before PDF/A, so
// PDF/A's Info/XMP agreement is the last word and signing covers both): makes Chromium's tagged
// print a PDF/UA-1 file (pdf/ua/make-ua.ts) and answers with the checker's verdict on those bytes,
// in the receipt and the X-PDF-UA header. A file that fails a condition is refused (422), never returned as UA.

import { ApiError } from '../../errors.ts';
import { makeUa, UaNotTaggedError, UaTitleMissingError } from '../../pdf/ua/make-ua.ts';
import type { UaReport } from '../../pdf/ua/check-ua.ts';
import type { OutputOptions, OutputStep, StepContext, StepOutcome } from './steps.ts';

/** The options this step reads besides the shared ones. */
type PdfUaOptions = OutputOptions & { pdf_ua?: unknown; lang?: string; metadata?: { title?: string } };

export class PdfUaStep implements OutputStep {
  readonly name = 'pdf_ua';
  readonly order = 15;

  // The office source's boolean pdf_ua is LibreOffice's own export as it makes it; "PDF/UA-1" is that export and this step.
  wanted(options: PdfUaOptions): boolean {
    return options.pdf_ua === 'PDF/UA-1';
  }

  check(options: PdfUaOptions, { field }: StepContext): void {
    if (!this.wanted(options)) return;
    if (options.encrypt !== undefined)
      throw new ApiError(
        'invalid_request',
        `${field}.encrypt cannot be combined with ${field}.pdf_ua: the accessibility fixer and checker must read the file.`,
      );
  }

  async apply(pdf: Uint8Array, options: PdfUaOptions, { field }: StepContext): Promise<StepOutcome> {
    // makeUa's report is the checker's verdict on the bytes it returns (decided on its own parse): no second reading.
    const made = await makeUa(pdf, { title: options.metadata?.title, lang: options.lang }).catch((error: unknown) => {
      throw refusal(error, field);
    });
    const { report } = made;
    if (!report.passed) throw accessibilityFailed(report);
    return { pdf: made.bytes, headers: { 'X-PDF-UA': uaHeader(report) }, report: { ...report, changes: made.changes } };
  }
}

/** The fixer's refusals as the 400s that say what to send. */
function refusal(error: unknown, field: string): unknown {
  if (error instanceof UaTitleMissingError)
    return new ApiError(
      'invalid_request',
      `${field}.pdf_ua needs a document title: give the page a <title> or send ${field}.metadata.title. Nothing was charged.`,
    );
  if (error instanceof UaNotTaggedError)
    return new ApiError(
      'invalid_request',
      `${field}.pdf_ua needs a tagged file, and this one has no structure tree: render it with pdf_ua (html, url, markdown, template), convert an office file with pdf_ua, or merge tagged sources with pdf_ua.`,
    );
  return error;
}

/** 422 accessibility_failed, with every finding {condition, page, detail} and what needs a person in the body. */
function accessibilityFailed(report: UaReport): ApiError {
  const conditions = [...new Set(report.failed.map((finding) => finding.condition))];
  return new ApiError(
    'accessibility_failed',
    `The result fails ${report.level} (Matterhorn ${conditions.join(', ')}); it was not returned or charged (docs/api.md#pdfua).`,
    {},
    {
      level: report.level,
      checks: report.checks,
      failed: report.failed.map(({ condition, page, detail }) => ({ condition, page: page ?? null, detail })),
      needs_person: report.needs_person,
    },
  );
}

/** "PDF/UA-1; checks=30; failed=0". */
export function uaHeader(report: UaReport): string {
  return `${report.level}; checks=${report.checks}; failed=${report.failed.length}`;
}
