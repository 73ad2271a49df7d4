// A select of API keys, shared by the filters and the new-template form.

import type { KeyRecord } from '../api/types.ts';

export function KeySelect({
  id,
  keys,
  value,
  onChange,
  allLabel,
  label,
  stacked = false,
}: {
  id: string;
  keys: KeyRecord[];
  value: string;
  onChange: (value: string) => void;
  allLabel?: string;
  label: string;
  /** The label above the select, as in the forms' grids (beside it, a narrow cell wrapped the label onto three lines). */
  stacked?: boolean;
}) {
  return (
    <div className={stacked ? 'field' : 'inline-field'}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="select" value={value} onChange={(event) => onChange(event.target.value)}>
        {allLabel !== undefined && <option value="">{allLabel}</option>}
        {keys.map((key) => (
          <option key={key.id} value={key.id}>
            {key.name} ({key.id})
          </option>
        ))}
      </select>
    </div>
  );
}

export function keyName(keys: KeyRecord[] | undefined, id: string | undefined): string {
  if (!id) return '—';
  return keys?.find((key) => key.id === id)?.name ?? `${id} (revoked)`;
}
