// The PdfOptions of docs/api.md#pdfoptions as a form, each field with its bounds and default; the extensions
// (custom paper, wait_for_function) beside them. Document and url options: DocumentOptionsForm,
// UrlOptionsForm.

import type { PdfOptions } from '../api/types.ts';
import type { OptionSpec } from '../lib/pdf-options.ts';
import { Check, NumberField, SelectField, TextField } from './Fields.tsx';

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
  // duplicates: one call per option of the shared field rows (Fields.tsx), alike only in shape (DocumentOptionsForm, OfficePlayground).
  return (
    <div className="options-grid">
      <SelectField
        label="Format"
        id="opt-format"
        value={value.format ?? DEFAULTS.format}
        choices={FORMATS}
        onChange={(next) => set('format', next as PdfOptions['format'])}
      />
      <TextField
        label="Margin"
        id="opt-margin"
        hint="Any CSS length, e.g. 1cm or 10mm 15mm"
        value={value.margin ?? ''}
        placeholder={DEFAULTS.margin}
        onChange={(next) => set('margin', next)}
      />
      <NumberField
        label="Scale"
        id="opt-scale"
        problem={problems.scale}
        bounds={BOUNDS.scale}
        value={value.scale}
        placeholder={DEFAULTS.scale}
        onChange={(next) => set('scale', next)}
      />
      <TextField
        label="Page ranges"
        id="opt-ranges"
        hint="e.g. 1-3, 5"
        value={value.page_ranges ?? ''}
        placeholder="all pages"
        onChange={(next) => set('page_ranges', next)}
      />
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
      <TextField
        label="Wait for selector"
        id="opt-wait-for"
        hint="CSS selector"
        value={value.wait_for ?? ''}
        placeholder="none"
        onChange={(next) => set('wait_for', next)}
      />
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
      <TextField
        label="Wait for function"
        id="opt-wait-fn"
        hint="JS expression, printed once truthy"
        value={value.wait_for_function ?? ''}
        placeholder="window.ready"
        onChange={(next) => set('wait_for_function', next)}
      />
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
