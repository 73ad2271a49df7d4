// The PdfOptions of docs/api.md#pdfoptions as a form, each field with its bounds and default; the extensions
// (custom paper, wait_for_function) beside them. Document and url options: DocumentOptionsForm,
// UrlOptionsForm.

import type { PdfOptions } from '../api/types.ts';
import type { Bounds, OptionSpec } from '../lib/pdf-options.ts';
import { Select } from './Select.tsx';

export function OptionsForm({
  value,
  onChange,
  problems,
  spec,
}: {
  value: PdfOptions;
  onChange: (next: PdfOptions) => void;
  problems: Record<string, string>;
  spec: OptionSpec;
}) {
  const { defaults: DEFAULTS, bounds: BOUNDS, formats: FORMATS, waitUntil: WAIT_UNTIL } = spec;
  const set = <K extends keyof PdfOptions>(name: K, field: PdfOptions[K]) => onChange({ ...value, [name]: field });
  return (
    <div className="options-grid">
      <SelectField
        label="Format"
        id="opt-format"
        value={value.format ?? DEFAULTS.format}
        choices={FORMATS}
        onChange={(next) => set('format', next as PdfOptions['format'])}
      />
      <Field label="Margin" id="opt-margin" hint="Any CSS length, e.g. 1cm or 10mm 15mm">
        <input
          id="opt-margin"
          className="input"
          value={value.margin ?? ''}
          placeholder={DEFAULTS.margin}
          onChange={(event) => set('margin', event.target.value)}
        />
      </Field>
      <NumberField
        label="Scale"
        id="opt-scale"
        problem={problems.scale}
        bounds={BOUNDS.scale}
        value={value.scale}
        placeholder={DEFAULTS.scale}
        onChange={(next) => set('scale', next)}
      />
      <Field label="Page ranges" id="opt-ranges" hint="e.g. 1-3, 5">
        <input
          id="opt-ranges"
          className="input"
          value={value.page_ranges ?? ''}
          placeholder="all pages"
          onChange={(event) => set('page_ranges', event.target.value)}
        />
      </Field>
      <SelectField
        label="Media"
        id="opt-media"
        value={value.media ?? DEFAULTS.media}
        choices={['print', 'screen']}
        onChange={(next) => set('media', next as PdfOptions['media'])}
      />
      <SelectField
        label="Wait until"
        id="opt-wait-until"
        value={value.wait_until ?? DEFAULTS.wait_until}
        choices={WAIT_UNTIL}
        onChange={(next) => set('wait_until', next as PdfOptions['wait_until'])}
      />
      <Field label="Wait for selector" id="opt-wait-for" hint="CSS selector">
        <input id="opt-wait-for" className="input" value={value.wait_for ?? ''} placeholder="none" onChange={(event) => set('wait_for', event.target.value)} />
      </Field>
      <NumberField
        label="Extra wait (ms)"
        id="opt-wait-ms"
        problem={problems.wait_ms}
        bounds={BOUNDS.wait_ms}
        value={value.wait_ms}
        placeholder={DEFAULTS.wait_ms}
        onChange={(next) => set('wait_ms', next)}
      />
      <fieldset className="field span-2 plain-fieldset">
        <legend className="field-label">Custom paper</legend>
        <div className="field-pair">
          <input
            id="opt-width"
            className="input"
            aria-label="Paper width"
            value={value.width ?? ''}
            placeholder="width"
            onChange={(event) => set('width', event.target.value)}
          />
          <span aria-hidden="true">×</span>
          <input
            id="opt-height"
            className="input"
            aria-label="Paper height"
            value={value.height ?? ''}
            placeholder="height"
            onChange={(event) => set('height', event.target.value)}
          />
        </div>
        <span className="hint">Both, e.g. 100mm × 150mm; instead of the format</span>
      </fieldset>
      <Field label="Wait for function" id="opt-wait-fn" hint="JS expression, printed once truthy">
        <input
          id="opt-wait-fn"
          className="input"
          value={value.wait_for_function ?? ''}
          placeholder="window.ready"
          onChange={(event) => set('wait_for_function', event.target.value)}
        />
      </Field>
      <NumberField
        label="Timeout (ms)"
        id="opt-timeout"
        problem={problems.timeout_ms}
        bounds={BOUNDS.timeout_ms}
        value={value.timeout_ms}
        placeholder={DEFAULTS.timeout_ms}
        onChange={(next) => set('timeout_ms', next)}
      />
      <div className="checks">
        <Check label="Landscape" checked={value.landscape ?? DEFAULTS.landscape} onChange={(checked) => set('landscape', checked)} />
        <Check
          label="Print background"
          checked={value.print_background ?? DEFAULTS.print_background}
          onChange={(checked) => set('print_background', checked)}
        />
        <Check
          label="Prefer CSS page size"
          checked={value.prefer_css_page_size ?? DEFAULTS.prefer_css_page_size}
          onChange={(checked) => set('prefer_css_page_size', checked)}
        />
      </div>
    </div>
  );
}

export function Field({ label, id, hint, problem, children }: { label: string; id: string; hint?: string; problem?: string; children: React.ReactNode }) {
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
