// The PdfOptions of docs/api.md#pdfoptions as a form, each field with its bounds and default; the extensions
// (custom paper, wait_for_function) beside them. Document and url options: DocumentOptionsForm,
// UrlOptionsForm.

import type { PdfOptions } from '../api/types.ts';
import type { OptionSpec } from '../lib/pdf-options.ts';

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
  const number = (name: 'scale' | 'timeout_ms' | 'wait_ms') => (raw: string) => set(name, raw === '' ? undefined : Number(raw));
  return (
    <div className="options-grid">
      <Field label="Format" id="opt-format">
        <select
          id="opt-format"
          className="select"
          value={value.format ?? DEFAULTS.format}
          onChange={(event) => set('format', event.target.value as PdfOptions['format'])}
        >
          {FORMATS.map((format) => (
            <option key={format}>{format}</option>
          ))}
        </select>
      </Field>
      <Field label="Margin" id="opt-margin" hint="Any CSS length, e.g. 1cm or 10mm 15mm">
        <input
          id="opt-margin"
          className="input"
          value={value.margin ?? ''}
          placeholder={DEFAULTS.margin}
          onChange={(event) => set('margin', event.target.value)}
        />
      </Field>
      <Field label="Scale" id="opt-scale" hint={`${BOUNDS.scale.min} to ${BOUNDS.scale.max}`} problem={problems.scale}>
        <input
          id="opt-scale"
          className="input"
          type="number"
          min={BOUNDS.scale.min}
          max={BOUNDS.scale.max}
          step={BOUNDS.scale.step}
          value={value.scale ?? ''}
          placeholder={String(DEFAULTS.scale)}
          onChange={(event) => number('scale')(event.target.value)}
          aria-invalid={Boolean(problems.scale)}
        />
      </Field>
      <Field label="Page ranges" id="opt-ranges" hint="e.g. 1-3, 5">
        <input
          id="opt-ranges"
          className="input"
          value={value.page_ranges ?? ''}
          placeholder="all pages"
          onChange={(event) => set('page_ranges', event.target.value)}
        />
      </Field>
      <Field label="Media" id="opt-media">
        <select
          id="opt-media"
          className="select"
          value={value.media ?? DEFAULTS.media}
          onChange={(event) => set('media', event.target.value as PdfOptions['media'])}
        >
          <option>print</option>
          <option>screen</option>
        </select>
      </Field>
      <Field label="Wait until" id="opt-wait-until">
        <select
          id="opt-wait-until"
          className="select"
          value={value.wait_until ?? DEFAULTS.wait_until}
          onChange={(event) => set('wait_until', event.target.value as PdfOptions['wait_until'])}
        >
          {WAIT_UNTIL.map((item) => (
            <option key={item}>{item}</option>
          ))}
        </select>
      </Field>
      <Field label="Wait for selector" id="opt-wait-for" hint="CSS selector">
        <input id="opt-wait-for" className="input" value={value.wait_for ?? ''} placeholder="none" onChange={(event) => set('wait_for', event.target.value)} />
      </Field>
      <Field label="Extra wait (ms)" id="opt-wait-ms" hint={`${BOUNDS.wait_ms.min} to ${BOUNDS.wait_ms.max}`} problem={problems.wait_ms}>
        <input
          id="opt-wait-ms"
          className="input"
          type="number"
          min={BOUNDS.wait_ms.min}
          max={BOUNDS.wait_ms.max}
          step={BOUNDS.wait_ms.step}
          value={value.wait_ms ?? ''}
          placeholder={String(DEFAULTS.wait_ms)}
          onChange={(event) => number('wait_ms')(event.target.value)}
          aria-invalid={Boolean(problems.wait_ms)}
        />
      </Field>
      <Field label="Paper width" id="opt-width" hint="Custom paper, e.g. 100mm (with height)">
        <input id="opt-width" className="input" value={value.width ?? ''} placeholder="from format" onChange={(event) => set('width', event.target.value)} />
      </Field>
      <Field label="Paper height" id="opt-height" hint="e.g. 150mm (with width)">
        <input id="opt-height" className="input" value={value.height ?? ''} placeholder="from format" onChange={(event) => set('height', event.target.value)} />
      </Field>
      <Field label="Wait for function" id="opt-wait-fn" hint="JS expression, printed once truthy">
        <input
          id="opt-wait-fn"
          className="input"
          value={value.wait_for_function ?? ''}
          placeholder="e.g. window.chartsReady"
          onChange={(event) => set('wait_for_function', event.target.value)}
        />
      </Field>
      <Field label="Timeout (ms)" id="opt-timeout" hint={`${BOUNDS.timeout_ms.min} to ${BOUNDS.timeout_ms.max}`} problem={problems.timeout_ms}>
        <input
          id="opt-timeout"
          className="input"
          type="number"
          min={BOUNDS.timeout_ms.min}
          max={BOUNDS.timeout_ms.max}
          step={BOUNDS.timeout_ms.step}
          value={value.timeout_ms ?? ''}
          placeholder={String(DEFAULTS.timeout_ms)}
          onChange={(event) => number('timeout_ms')(event.target.value)}
          aria-invalid={Boolean(problems.timeout_ms)}
        />
      </Field>
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

export function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span>{label}</span>
    </label>
  );
}
