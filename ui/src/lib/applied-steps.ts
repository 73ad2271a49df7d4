// What a preview did with the final steps it was asked for (PDF/A, PDF/UA, attachments, the e-invoice, the
// signature), for the result area: read from the answer's headers, so the page says what was
// applied and what was not instead of handing over an unsigned PDF in silence (issue 39, item 14;
// docs/decisions.md, "Previews state the final steps; they do not sign").

import { describeReportHeader } from './rule-reports.ts';
import { describeUaHeader } from './ua-report.ts';
import type { PdfOptions } from '../api/types.ts';

export interface AppliedStep {
  step: 'pdf_a' | 'pdf_ua' | 'attachments' | 'e_invoice' | 'sign';
  label: string;
  applied: boolean;
  detail: string;
}

/** The steps `asked` names, each applied or not, as the answer's headers tell. */
export function appliedSteps(
  asked: (Pick<PdfOptions, 'pdf_a' | 'attachments' | 'e_invoice' | 'sign'> & { pdf_ua?: string | boolean }) | undefined,
  headers: Headers,
): AppliedStep[] {
  const steps: AppliedStep[] = [];
  if (!asked) return steps;
  if (asked.pdf_a) {
    // "PDF/A-3b; rules=21; failed=0[; verapdf=pass]" (docs/api.md#pdfa).
    const conformance = headers.get('X-PDF-Conformance');
    const [level, ...facts] = conformance?.split(';').map((part) => part.trim()) ?? [];
    const fact = (name: string) => facts.find((part) => part.startsWith(`${name}=`))?.slice(name.length + 1);
    steps.push({
      step: 'pdf_a',
      label: 'PDF/A',
      applied: conformance !== null,
      detail: conformance
        ? `${level}: ${fact('rules') ?? '?'} rules checked, ${fact('failed') ?? '?'} failed${fact('verapdf') ? `; veraPDF ${fact('verapdf')}` : ''}`
        : 'not applied: the answer carries no conformance report',
    });
  }
  // The office form's boolean pdf_ua is LibreOffice's own tagged export, not the checked PDF/UA step.
  if (typeof asked.pdf_ua === 'string') {
    // "PDF/UA-1; checks=30; failed=0" (docs/api.md#pdfua): a file that fails is refused, never sent.
    const verdict = describeUaHeader(headers.get('X-PDF-UA'));
    steps.push({ step: 'pdf_ua', label: 'PDF/UA', applied: verdict !== null, detail: verdict ?? 'not applied: the answer carries no X-PDF-UA verdict' });
  }
  if (asked.attachments?.length) {
    // The step runs or the whole render fails: a PDF in hand has them.
    steps.push({ step: 'attachments', label: 'Attachments', applied: true, detail: `${asked.attachments.length} embedded` });
  }
  if (asked.e_invoice) {
    const profile = headers.get('X-E-Invoice');
    // The rule check's line (X-E-Invoice-Report: rules=<set>; fatal=0; warnings=N), when the server sends it.
    const report = headers.get('X-E-Invoice-Report');
    steps.push({
      step: 'e_invoice',
      label: 'E-invoice',
      applied: profile !== null,
      detail: profile ? `Factur-X ${profile} embedded${report ? `; ${describeReportHeader(report)}` : ''}` : 'not applied: the answer names no e-invoice',
    });
  }
  if (asked.sign) {
    const signature = headers.get('X-PDF-Signature');
    steps.push({
      step: 'sign',
      label: 'Signature',
      applied: signature !== null,
      detail: signature ?? 'not signed: a preview has no key to sign with. The keyed samples below sign (POST /v1/pdf with this key’s certificate).',
    });
  }
  return steps;
}
