// The playground's stylesheet fields for a Markdown source: options.css and options.css_mode.

import type { PdfOptions } from '../api/types.ts';

/** options.css and options.css_mode: the caller's stylesheet over (or instead of) the default one. */
export function MarkdownStyleFields({ value, onChange }: { value: PdfOptions; onChange: (options: PdfOptions) => void }) {
  const set = (changes: Partial<PdfOptions>) => {
    const next = { ...value, ...changes };
    if (!next.css) delete next.css;
    if (next.css_mode !== 'replace') delete next.css_mode;
    onChange(next);
  };
  return (
    <div className="field">
      <label className="field-label" htmlFor="playground-css">
        CSS{' '}
        <span className="hint">
          <select
            className="select small"
            aria-label="How the CSS applies"
            value={value.css_mode ?? 'extend'}
            onChange={(event) => set({ css_mode: event.target.value as 'extend' | 'replace' })}
          >
            <option value="extend">after the default print stylesheet</option>
            <option value="replace">instead of the default print stylesheet</option>
          </select>
        </span>
      </label>
      <textarea
        id="playground-css"
        className="code-input"
        spellCheck={false}
        rows={4}
        placeholder="h1 { color: #4f46e5; }"
        value={value.css ?? ''}
        onChange={(event) => set({ css: event.target.value })}
      />
    </div>
  );
}
