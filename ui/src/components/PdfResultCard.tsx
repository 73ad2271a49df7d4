// The result side of a playground: the PDF drawn inline with a line of facts, a download button and
// the error of the last attempt. Presentational; the page owns the request.

import type { RuleFinding } from '../api/einvoice.ts';
import type { AppliedStep } from '../lib/applied-steps.ts';
import { formatBytes } from '../lib/format.ts';
import { ErrorNote } from './Page.tsx';
import { PdfPreview, downloadPdf } from './PdfPreview.tsx';
import { RuleTable } from './RuleTable.tsx';
import type { UaReport } from '../lib/ua-report.ts';
import { UaReportView } from './UaReportView.tsx';

export interface PdfResultCardProps {
  /** The last result and how long it took; its size and time are the card's line of facts. */
  result: { bytes: Uint8Array; ms: number; applied?: AppliedStep[] } | null;
  /** One more fact for that line (" · 12 renders left this minute"). */
  moreFacts?: string;
  downloadName: string;
  error?: string;
  /** The rules a refused e-invoice broke (400 einvoice_invalid), listed under the error. */
  rules?: RuleFinding[];
  /** The conditions a refused PDF/UA file failed and what needs a person (422 accessibility_failed). */
  uaReport?: UaReport;
  busy: boolean;
  label: string;
  empty: string;
}

export function PdfResultCard({ result, moreFacts = '', downloadName, error, rules, uaReport, busy, label, empty }: PdfResultCardProps) {
  const bytes = result?.bytes ?? null;
  return (
    <div className="card preview-card">
      <div className="card-head">
        <h2 className="card-title">PDF</h2>
        <div className="card-actions">
          {result && (
            <span className="muted small" data-testid="render-facts">
              {formatBytes(result.bytes.byteLength)} · {result.ms} ms{moreFacts}
            </span>
          )}
          <button type="button" className="button small" disabled={!bytes} onClick={() => bytes && downloadPdf(bytes, downloadName)}>
            Download
          </button>
        </div>
      </div>
      <ErrorNote>{error}</ErrorNote>
      {error && rules && rules.length > 0 && (
        <div className="rule-report">
          <RuleTable label="Rules the e-invoice breaks" fatal={rules} narrow />
        </div>
      )}
      {error && uaReport && <UaReportView report={uaReport} />}
      {result?.applied && result.applied.length > 0 && (
        <ul className="applied-steps" aria-label="Final steps">
          {result.applied.map((step) => (
            <li key={step.step} data-step={step.step} data-applied={step.applied} className={step.applied ? undefined : 'not-applied'}>
              <strong>{step.label}</strong>: {step.detail}
            </li>
          ))}
        </ul>
      )}
      <PdfPreview bytes={bytes} label={label} busy={busy} empty={empty} />
    </div>
  );
}
