// The plans this server offers, folded under the keys table: what a key on each plan may do.

import type { Plan } from '../api/types.ts';
import { formatNumber } from '../lib/format.ts';
import { Table } from './Table.tsx';

export function PlanNotes({ plans }: { plans: Plan[] }) {
  return (
    <details className="plan-notes">
      <summary>Plans on this server</summary>
      <Table label="Plans" className="compact" columns={[{ label: 'Plan' }, { label: 'Documents a month' }, { label: 'Retention' }, { label: 'Batch items' }]}>
        {plans.map((plan) => (
          <tr key={plan.id}>
            <td>{plan.name}</td>
            <td>{formatNumber(plan.monthly_documents)}</td>
            <td>{String(plan.retention) === '0' ? 'not stored' : String(plan.retention)}</td>
            <td>{plan.batch_max_items === 0 ? 'no batch' : plan.batch_max_items}</td>
          </tr>
        ))}
      </Table>
    </details>
  );
}
