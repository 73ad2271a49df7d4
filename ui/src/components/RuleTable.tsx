// An e-invoice's rule findings as a table: each line the official rule id, our sentence and the
// element at fault, fatal lines first (they decide the verdict), then the warnings. Used by the
// E-invoices screen, the playgrounds' refused renders and receipts (narrow: the id, severity and
// sentence share a column, for a result pane beside a form). Presentational.

import type { RuleFinding } from '../api/einvoice.ts';
import { Table } from './Table.tsx';

const WIDE = [
  { label: 'Severity', className: 'rule-severity' },
  { label: 'Rule', className: 'rule-id' },
  { label: 'What the rule asks' },
  { label: 'Location', className: 'rule-location' },
];
const NARROW = [{ label: 'Rule' }, { label: 'Location', className: 'rule-location' }];

function Severity({ severity }: { severity: string }) {
  return <span className={severity === 'fatal' ? 'pill pill-failed' : 'pill pill-warn'}>{severity}</span>;
}

export function RuleTable({
  label,
  fatal,
  warnings = [],
  narrow = false,
}: {
  label: string;
  fatal: RuleFinding[];
  warnings?: RuleFinding[];
  narrow?: boolean;
}) {
  if (fatal.length === 0 && warnings.length === 0) return <p className="muted small">No findings.</p>;
  const rows = [...fatal.map((finding) => ({ finding, severity: 'fatal' })), ...warnings.map((finding) => ({ finding, severity: 'warning' }))];
  return (
    <Table label={label} className={narrow ? 'compact rule-table narrow' : 'compact rule-table'} columns={narrow ? NARROW : WIDE}>
      {rows.map(({ finding, severity }, index) =>
        narrow ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a rule may fail at several places; the list never changes once drawn
          <tr key={index} data-rule={finding.id} data-severity={severity}>
            <td>
              <Severity severity={severity} /> <span className="mono">{finding.id}</span>
              <div>{finding.detail}</div>
            </td>
            <td className="mono small">{finding.location}</td>
          </tr>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <tr key={index} data-rule={finding.id} data-severity={severity}>
            <td>
              <Severity severity={severity} />
            </td>
            <td className="mono">{finding.id}</td>
            <td>{finding.detail}</td>
            <td className="mono small">{finding.location}</td>
          </tr>
        ),
      )}
    </Table>
  );
}
