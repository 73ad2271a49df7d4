// The PDF/A step of every output (order 20: after attachments and the e-invoice, before signing):
// makes the file archival on a PDF worker thread, checks the result against the level's rules
// (and with veraPDF when the operator names it), and reports the verdict in the receipt and the
// X-PDF-Conformance header. A result that fails a rule is refused (422), never returned as that level.

import { ApiError } from '../../errors.ts';
import { ConformanceFailedError, type ConformanceReport } from '../../pdf/conformance.ts';
import { archiveInWorker } from '../../pdf/finisher.ts';
import { allowsAnyAttachment, needsTags, pdfALevelOf, type PdfALevelFacts } from '../../pdf/pdf-a-options.ts';
import { runVeraPdf, type VeraPdfVerdict } from '../../pdf/verapdf.ts';
import type { OutputOptions, OutputStep, StepContext, StepOutcome } from './steps.ts';

export interface PdfAStepDeps {
  /** veraPDF's command (VERAPDF_PATH); empty: our checker alone. */
  veraPdf?: string;
}

/** The options this step reads besides the shared ones: tags (level a) and the watermark's opacity (part 1). */
type PdfAOptions = OutputOptions & { tagged?: unknown; pdf_ua?: unknown; watermark?: { opacity?: number } };

export class PdfAStep implements OutputStep {
  readonly name = 'pdf_a';
  readonly order = 20;

  constructor(private readonly deps: PdfAStepDeps = {}) {}

  /** pdf_a, or an e-invoice, which is a PDF/A-3 file by definition. */
  wanted(options: OutputOptions): boolean {
    return options.pdf_a !== undefined || options.e_invoice !== undefined;
  }

  check(options: PdfAOptions, { field }: StepContext): void {
    if (!this.wanted(options)) return;
    const facts = levelOf(options);
    const level = `${field}.pdf_a`;
    if (options.encrypt !== undefined)
      throw new ApiError(
        'invalid_request',
        `${field}.encrypt cannot be combined with ${level}: PDF/A forbids encryption (an archive must open without a password).`,
      );
    if (options.e_invoice !== undefined && facts.part !== 3)
      throw new ApiError('invalid_request', `${level} ${facts.level} cannot carry ${field}.e_invoice: an e-invoice is a PDF/A-3 file (PDF/A-3b, 3u or 3a).`);
    if (hasAttachments(options) && !allowsAnyAttachment(facts))
      throw new ApiError(
        'invalid_request',
        `${field}.attachments cannot be embedded in ${facts.level}: ${facts.part === 1 ? 'PDF/A-1 allows no embedded files' : 'PDF/A-2 embeds only PDF/A files'}; use PDF/A-3b, 3u or 3a.`,
      );
    if (needsTags(facts) && options.tagged !== true && options.pdf_ua !== true && options.pdf_ua !== 'PDF/UA-1')
      throw new ApiError(
        'invalid_request',
        `${level} ${facts.level} needs a tagged file: send ${field}.tagged: true with an html, url, markdown or template source (a merge keeps no tags), or choose ${facts.level.replace(/a$/, 'u')}.`,
      );
    if (facts.part === 1 && options.watermark !== undefined && (options.watermark.opacity ?? 0.2) < 1)
      throw new ApiError(
        'invalid_request',
        `${field}.watermark.opacity must be 1 with ${level} ${facts.level}: PDF/A-1 forbids transparency (PDF/A-2b allows it).`,
      );
  }

  async apply(pdf: Uint8Array, options: OutputOptions): Promise<StepOutcome> {
    const facts = levelOf(options);
    const archival = await archiveInWorker(pdf, facts.level);
    const report: ConformanceReport & { verapdf?: VeraPdfVerdict } = archival.report;
    if (this.deps.veraPdf) report.verapdf = await runVeraPdf(this.deps.veraPdf, archival.pdf, facts);
    if (!report.passed || (report.verapdf?.ran && !report.verapdf.passed)) throw new ConformanceFailedError(report);
    return { pdf: archival.pdf, headers: { 'X-PDF-Conformance': conformanceHeader(report) }, report: { ...report } };
  }
}

/** The level asked, an e-invoice's PDF/A-3b when none is (docs/api.md#pdfa). */
function levelOf(options: OutputOptions): PdfALevelFacts {
  return pdfALevelOf(options.pdf_a ?? 'PDF/A-3b') ?? pdfALevelOf('PDF/A-3b')!;
}

function hasAttachments(options: OutputOptions): boolean {
  return Array.isArray(options.attachments) && options.attachments.length > 0;
}

/** "PDF/A-2b; rules=21; failed=0", with "; verapdf=pass" (or fail, error) when veraPDF ran. */
export function conformanceHeader(report: ConformanceReport & { verapdf?: VeraPdfVerdict }): string {
  const parts = [report.level, `rules=${report.rules}`, `failed=${report.failed.length}`];
  if (report.verapdf) parts.push(`verapdf=${!report.verapdf.ran ? 'error' : report.verapdf.passed ? 'pass' : 'fail'}`);
  return parts.join('; ');
}
