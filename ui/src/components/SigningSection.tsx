// The signing step's report in a receipt (docs/api.md#signing-pades): which certificate signed
// (by fingerprint, never its key), the PAdES level and the timestamping authority. Presentational.

import { Fingerprint } from './Fingerprint.tsx';
import { stepReport, type Receipt } from '../api/activity.ts';

interface SigningReport {
  certificate_id: string;
  fingerprint: string;
  subject: string;
  level: string;
  tsa?: string;
  tsa_name?: string;
  timestamp?: string;
  warning?: string;
}

// duplicates: alike in shape to ConformanceSection (a step's report as a receipt section); the lookup is stepReport.
export function SigningSection({ receipt }: { receipt: Receipt }) {
  const report = stepReport<SigningReport>(receipt, 'sign');
  if (!report) return null;
  return (
    <section aria-label="Signature">
      <h3>Signature</h3>
      <dl className="receipt-facts">
        <div>
          <dt>Signer</dt>
          <dd>{report.subject}</dd>
        </div>
        <div>
          <dt>Certificate</dt>
          <dd>
            <span className="mono">{report.certificate_id}</span>, sha256 <Fingerprint value={report.fingerprint} />
          </dd>
        </div>
        <div>
          <dt>Level</dt>
          <dd>PAdES {report.level}</dd>
        </div>
        <div>
          <dt>Timestamp</dt>
          <dd>{report.tsa ? `${report.timestamp ?? ''} from ${report.tsa_name ? `${report.tsa_name} (${report.tsa})` : report.tsa}` : 'none (B-B)'}</dd>
        </div>
      </dl>
      {report.warning && <p className="note">{report.warning}</p>}
    </section>
  );
}
