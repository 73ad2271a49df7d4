// The option forms' field rows, written once: a labelled control with its hint or its problem, and
// the text, number, select and checkbox rows built on it.

import type { ReactNode } from 'react';
import type { Bounds } from '../lib/pdf-options.ts';
import { Select } from './Select.tsx';

export function Field({ label, id, hint, problem, children }: { label: string; id: string; hint?: string; problem?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children}
      {problem ? (
        <span className="error-text small">
          {label} {problem}
        </span>
      ) : (
        hint && <span className="hint">{hint}</span>
      )}
    </div>
  );
}

/** A one-line text input in a Field; `type` password or url where the value is one. */
export function TextField({
  label,
  id,
  hint,
  value,
  placeholder,
  type,
  autoComplete,
  required,
  maxLength,
  onChange,
}: {
  label: string;
  id: string;
  hint?: string;
  value: string;
  placeholder?: string;
  type?: 'password' | 'url' | 'color';
  autoComplete?: string;
  required?: boolean;
  maxLength?: number;
  onChange: (next: string) => void;
}) {
  return (
    <Field label={label} id={id} hint={hint}>
      <input
        id={id}
        className="input"
        type={type}
        autoComplete={autoComplete}
        value={value}
        placeholder={placeholder}
        required={required}
        maxLength={maxLength}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}

/** A number input in a Field, within the option spec's bounds (the hint unless given); an empty input is undefined (the server's default). */
export function NumberField({
  label,
  id,
  hint,
  problem,
  bounds,
  value,
  placeholder,
  onChange,
}: {
  label: string;
  id: string;
  hint?: string;
  problem?: string;
  bounds: Bounds;
  value: number | undefined;
  placeholder: number;
  onChange: (next: number | undefined) => void;
}) {
  return (
    <Field label={label} id={id} hint={hint ?? `${bounds.min} to ${bounds.max}`} problem={problem}>
      <input
        id={id}
        className="input"
        type="number"
        min={bounds.min}
        max={bounds.max}
        step={bounds.step}
        value={value ?? ''}
        placeholder={String(placeholder)}
        onChange={(event) => onChange(event.target.value === '' ? undefined : Number(event.target.value))}
        aria-invalid={Boolean(problem)}
      />
    </Field>
  );
}

/** A select in a Field whose options are their own labels. */
export function SelectField({
  label,
  id,
  hint,
  value,
  choices,
  onChange,
}: {
  label: string;
  id: string;
  hint?: string;
  value: string;
  choices: readonly string[];
  onChange: (next: string) => void;
}) {
  return (
    <Field label={label} id={id} hint={hint}>
      <Select id={id} value={value} choices={choices} onChange={onChange} />
    </Field>
  );
}

export function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span>{label}</span>
    </label>
  );
}
