// The steps an output took in a receipt, each with its time and its size before and after: a
// transform's own steps (split, compress, ...), then the final ones (attachments and the e-invoice,
// PDF/A, the signature), so a receipt's total is accounted for on screen (issue 39, item 11). The
// embedded files and the e-invoice are listed beneath, then any e-invoice rule report. Presentational.

import { stepReport, type Receipt } from '../api/activity.ts';
import { formatBytes, plural } from '../lib/format.ts';
import { ReceiptRuleReports } from './ReceiptRuleReports.tsx';
import { Table } from './Table.tsx';

const STEP_NAMES: Record<string, string> = {
  attachments: 'Attachments',
  pdf_a: 'PDF/A',
  sign: 'Signature',
};

interface AttachmentsReport {
  files: { filename: string; bytes: number; mime_type?: string; relationship?: string }[];
  e_invoice?: { profile: string; filename: string };
}

/** A step's name for a person: the final steps by name, a transform's by its op ("split" -> "Split"). */
function stepName(step: string): string {
  return STEP_NAMES[step] ?? step.charAt(0).toUpperCase() + step.slice(1).replaceAll('_', ' ');
}

export function StepsSection({ receipt }: { receipt: Receipt }) {
  const steps = receipt.steps ?? [];
  if (steps.length === 0) return null;
  const attachments = stepReport<AttachmentsReport>(receipt, 'attachments');
  return (
    <section aria-label="Steps">
      <h3>{plural(steps.length, 'step')} after the PDF was made</h3>
      <Table label="Steps of the output" className="compact" columns={[{ label: 'Step' }, { label: 'Time', className: 'num' }, { label: 'Size' }]}>
        {steps.map((step, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a transform may run one op twice; the list never changes once kept
          <tr key={index} data-step={step.step}>
            <td>{stepName(step.step)}</td>
            <td className="num nowrap">{Math.round(step.ms)} ms</td>
            <td className="nowrap small">
              {formatBytes(step.bytes_before)} → {formatBytes(step.bytes_after)}
            </td>
          </tr>
        ))}
      </Table>
      {attachments && (
        <>
          <h3>{attachments.e_invoice ? 'Attachments and e-invoice' : 'Attachments'}</h3>
          {attachments.e_invoice && (
            <p data-testid="receipt-e-invoice">
              Factur-X {attachments.e_invoice.profile} e-invoice, embedded as <span className="mono">{attachments.e_invoice.filename}</span>
            </p>
          )}
          <ul className="receipt-warnings">
            {attachments.files.map((file) => (
              <li key={file.filename}>
                <span className="mono">{file.filename}</span>, {formatBytes(file.bytes)}
                {file.relationship ? ` (${file.relationship})` : ''}
              </li>
            ))}
          </ul>
        </>
      )}
      <ReceiptRuleReports receipt={receipt} />
    </section>
  );
}
