// The accessibility report of a PDF/UA output in a receipt (docs/api.md#pdfua): the conditions
// checked, any that failed, and what the checker leaves to a person. Presentational.

import { stepReport, type Receipt } from '../api/activity.ts';
import type { UaReport } from '../lib/ua-report.ts';
import { UaReportView } from './UaReportView.tsx';

export function AccessibilitySection({ receipt }: { receipt: Receipt }) {
  const report = stepReport<UaReport>(receipt, 'pdf_ua');
  if (!report) return null;
  return (
    <section aria-label="Accessibility">
      <h3>Accessibility</h3>
      <UaReportView report={report} headingLevel={4} />
    </section>
  );
}
