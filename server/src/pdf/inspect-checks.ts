// The checks POST /v1/pdf/inspect runs when its `checks` field asks (issue 42): today the PDF/UA-1
// checker (ua/check-ua.ts), free on any PDF, its report answered in the inspection's `checks`.
// On the PDF worker thread, with the inspection.

import { checkUa, type UaReport } from './ua/check-ua.ts';

export const INSPECT_CHECKS = ['pdf_ua'] as const;
export type InspectCheck = (typeof INSPECT_CHECKS)[number];

/** The reports asked for, by check name. */
export interface InspectChecks {
  pdfUa?: UaReport;
}

export async function runInspectChecks(pdf: Uint8Array, checks: readonly InspectCheck[] | undefined): Promise<InspectChecks | undefined> {
  if (!checks || checks.length === 0) return undefined;
  const reports: InspectChecks = {};
  if (checks.includes('pdf_ua')) {
    const report = await checkUa(pdf);
    // As the 422 accessibility_failed writes them: a finding that belongs to no page says null.
    reports.pdfUa = { ...report, failed: report.failed.map((finding) => ({ ...finding, page: finding.page ?? null })) as UaReport['failed'] };
  }
  return reports;
}
