// One key in the keys table: name and id, its plan, this month's usage against the plan, auto-store,
// which renders keep a receipt, and the rotate and revoke buttons.

import type { KeyRecord, Plan } from '../../api/types.ts';
import { formatDay } from '../../lib/format.ts';
import { UsageBar } from '../../components/Bars.tsx';
import { Select } from '../../components/Select.tsx';
import { ACTIONS_COLUMN, type Column } from '../../components/Table.tsx';

export type KeyPatch = Partial<Pick<KeyRecord, 'plan' | 'auto_store' | 'receipts'>>;

export const KEY_COLUMNS: Column[] = [
  { label: 'Name' },
  { label: 'Plan' },
  { label: 'This month', className: 'usage-col', title: 'Documents this month against the plan' },
  { label: 'Auto-store' },
  { label: 'Receipts', title: 'Which renders keep a receipt (what the page loaded, warnings, timings): those stored, all, or none' },
  ACTIONS_COLUMN,
];

// duplicates: its props’ list is alike in shape only to KeyFilterBar’s (Table.tsx).
export function KeyRow({
  apiKey: key,
  plans,
  busy,
  onChange,
  onRotate,
  onRevoke,
}: {
  apiKey: KeyRecord;
  plans: Plan[] | undefined;
  busy: boolean;
  onChange: (patch: KeyPatch) => void;
  onRotate: () => void;
  onRevoke: () => void;
}) {
  // A plan the server no longer lists stays choosable, so the select shows what the key has.
  const known = plans?.some((plan) => plan.id === key.plan);
  return (
    <tr data-key-id={key.id}>
      <td>
        <div className="strong">{key.name}</div>
        <div className="muted small">
          <span className="mono">{key.id}</span> · {formatDay(key.created_at)}
        </div>
      </td>
      <td>
        <Select
          small
          label={`Plan of ${key.name}`}
          value={key.plan}
          disabled={busy}
          choices={[...(known ? [] : [key.plan]), ...(plans ?? []).map((plan) => ({ value: plan.id, label: plan.name }))]}
          onChange={(plan) => onChange({ plan })}
        />
      </td>
      <td>
        {key.usage.used === null ? (
          <span className="danger-text" title="The server cannot read this key's usage file; its calls fail until the operator runs npm run cli -- doctor.">
            Usage record damaged
          </span>
        ) : (
          <UsageBar used={key.usage.used} limit={key.usage.limit} />
        )}
      </td>
      <td>
        <label className="switch">
          <input
            type="checkbox"
            checked={key.auto_store}
            disabled={busy}
            onChange={(event) => onChange({ auto_store: event.target.checked })}
            aria-label={`Auto-store for ${key.name}`}
          />
          <span aria-hidden="true" />
        </label>
      </td>
      <td>
        <Select
          small
          label={`Receipts for ${key.name}`}
          value={key.receipts ?? 'stored'}
          disabled={busy}
          choices={['stored', 'all', 'off']}
          onChange={(receipts) => onChange({ receipts: receipts as KeyRecord['receipts'] })}
        />
      </td>
      <td className="row-actions">
        <button type="button" className="button ghost small" onClick={onRotate}>
          Rotate
        </button>
        <button type="button" className="button ghost small danger-text" onClick={onRevoke}>
          Revoke
        </button>
      </td>
    </tr>
  );
}
