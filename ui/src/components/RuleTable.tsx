// An e-invoice's rule findings as a table: each line the official rule id, our sentence and the
// element at fault, fatal lines first (they decide the verdict), then the warnings. Used by the
// E-invoices screen, the playgrounds' refused renders and receipts. Presentational.

import type { RuleFinding } from '../api/einvoice.ts';
import { Table } from './Table.tsx';

const COLUMNS = [
  { label: 'Severity', className: 'rule-severity' },
  { label: 'Rule', className: 'rule-id' },
  { label: 'What the rule asks' },
  { label: 'Location', className: 'rule-location' },
];

export function RuleTable({ label, fatal, warnings = [] }: { label: string; fatal: RuleFinding[]; warnings?: RuleFinding[] }) {
  if (fatal.length === 0 && warnings.length === 0) return <p className="muted small">No findings.</p>;
  const rows = [...fatal.map((finding) => ({ finding, severity: 'fatal' })), ...warnings.map((finding) => ({ finding, severity: 'warning' }))];
  return (
    <Table label={label} className="compact rule-table" columns={COLUMNS}>
      {rows.map(({ finding, severity }, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a rule may fail at several places; the list never changes once drawn
        <tr key={index} data-rule={finding.id} data-severity={severity}>
          <td>
            <span className={severity === 'fatal' ? 'pill pill-failed' : 'pill pill-warn'}>{severity}</span>
          </td>
          <td className="mono">{finding.id}</td>
          <td>{finding.detail}</td>
          <td className="mono small rule-location">{finding.location}</td>
        </tr>
      ))}
    </Table>
  );
}
