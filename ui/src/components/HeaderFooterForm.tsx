// options.header and options.footer as a form: HTML for every page, and optionally another for
// the first page (or none there, for a cover) and for the last page, with the box height.
// Page variables and template placeholders are listed beside it (a render's by default; a caller
// whose pages Quire did not lay out, such as an office conversion, says its own).
// docs/api.md#headers-and-footers.

import type { ReactNode } from 'react';
import type { RunningOption } from '../api/types.ts';
import { Check, Field } from './Fields.tsx';

interface RunningFields {
  html: string;
  first: string;
  noneOnFirst: boolean;
  last: string;
  height: string;
}

const SIDES = [
  { side: 'header', label: 'Header' },
  { side: 'footer', label: 'Footer' },
] as const;

/** Options that carry a header and a footer: a render's PdfOptions, an office conversion's options. */
interface WithRunning {
  header?: RunningOption;
  footer?: RunningOption;
}

export function HeaderFooterForm<Options extends WithRunning>({
  value,
  onChange,
  note,
}: {
  value: Options;
  onChange: (next: Options) => void;
  /** What the HTML may use and how the boxes make room; a render's by default. */
  note?: ReactNode;
}) {
  return (
    <div className="options-grid">
      <p className="hint wide">
        {note ?? (
          <>
            HTML with <code>{'{{page}}'}</code>, <code>{'{{pages}}'}</code>, <code>{'{{section}}'}</code>, <code>{'{{title}}'}</code>, <code>{'{{date}}'}</code>{' '}
            and the render’s data; images and fonts by relative name come from the template’s assets. The margin grows to make room.
          </>
        )}
      </p>
      {SIDES.map(({ side, label }) => {
        const fields = fieldsOf(value[side]);
        const set = (change: Partial<RunningFields>) => onChange({ ...value, [side]: optionOf({ ...fields, ...change }) });
        return (
          <div key={side} className="running-fields wide">
            <h3 className="options-heading">{label}</h3>
            <Field label={`${label}: every page`} id={`opt-${side}-html`}>
              <textarea
                id={`opt-${side}-html`}
                className="code-input"
                rows={2}
                value={fields.html}
                placeholder={
                  side === 'header' ? '<div style="text-align:right">{{title}}</div>' : '<div style="text-align:center">Page {{page}} of {{pages}}</div>'
                }
                onChange={(event) => set({ html: event.target.value })}
              />
            </Field>
            <Check label={`No ${side} on the first page (a cover)`} checked={fields.noneOnFirst} onChange={(noneOnFirst) => set({ noneOnFirst })} />
            {!fields.noneOnFirst && (
              <Field label={`${label}: first page`} id={`opt-${side}-first`} hint="Optional: another HTML for page 1">
                <textarea
                  id={`opt-${side}-first`}
                  className="code-input"
                  rows={2}
                  value={fields.first}
                  onChange={(event) => set({ first: event.target.value })}
                />
              </Field>
            )}
            <Field label={`${label}: last page`} id={`opt-${side}-last`} hint="Optional: another HTML for the last page">
              <textarea id={`opt-${side}-last`} className="code-input" rows={2} value={fields.last} onChange={(event) => set({ last: event.target.value })} />
            </Field>
            <Field label={`${label} height`} id={`opt-${side}-height`} hint="Default: the height of the content">
              <input
                id={`opt-${side}-height`}
                className="input"
                value={fields.height}
                placeholder="auto"
                onChange={(event) => set({ height: event.target.value })}
              />
            </Field>
          </div>
        );
      })}
    </div>
  );
}

function fieldsOf(option: RunningOption | undefined): RunningFields {
  const value = typeof option === 'string' ? { html: option } : (option ?? {});
  return {
    html: value.html ?? '',
    first: typeof value.first === 'string' ? value.first : '',
    noneOnFirst: value.first === false || value.first === null,
    last: typeof value.last === 'string' ? value.last : '',
    height: value.height ?? '',
  };
}

/** The shortest option for the fields: a string when only the default is given; undefined when nothing is. */
function optionOf(fields: RunningFields): RunningOption | undefined {
  const variants: Exclude<RunningOption, string> = {};
  if (fields.noneOnFirst) variants.first = false;
  else if (fields.first) variants.first = fields.first;
  if (fields.last) variants.last = fields.last;
  if (fields.height) variants.height = fields.height;
  if (Object.keys(variants).length === 0) return fields.html === '' ? undefined : fields.html;
  return { html: fields.html, ...variants };
}
