// The conformance report of a PDF/A output in a receipt (docs/api.md#pdfa): level, rules checked,
// the failed ones by name, and veraPDF's verdict where the server runs it. Presentational.

import { stepReport, type Receipt } from '../api/activity.ts';

interface ConformanceReport {
  level: string;
  rules: number;
  failed: { rule: string; detail: string }[];
  passed: boolean;
  verapdf?: { ran: boolean; passed: boolean; detail: string };
}

export function ConformanceSection({ receipt }: { receipt: Receipt }) {
  const report = stepReport<ConformanceReport>(receipt, 'pdf_a');
  if (!report) return null;
  return (
    <section aria-label="Conformance">
      <h3>Conformance</h3>
      <p>
        {report.level}: {report.rules} rules checked, {report.failed.length} failed
        {report.verapdf ? `; veraPDF: ${report.verapdf.ran ? (report.verapdf.passed ? 'passed' : 'failed') : 'could not run'}` : ''}
      </p>
      {report.failed.length > 0 && (
        <ul className="receipt-warnings">
          {report.failed.map((rule) => (
            <li key={rule.rule}>
              {rule.rule}: {rule.detail}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
