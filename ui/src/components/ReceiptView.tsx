// One render receipt, read by an operator: the outcome, the stages' times, the options in force,
// the requests as a waterfall (refused ones in red, with the guard's reason), console errors,
// fonts in the PDF and warnings, each said once. Presentational: the page loads the receipt
// (docs/api.md#render-receipts).

import { Fragment, type ReactNode } from 'react';
import type { Receipt, ReceiptRequest } from '../api/activity.ts';
import { formatBytes, formatDate, plural } from '../lib/format.ts';
import { StatusPill } from './Bars.tsx';
import { AccessibilitySection } from './AccessibilitySection.tsx';
import { ConformanceSection } from './ConformanceSection.tsx';
import { SigningSection } from './SigningSection.tsx';
import { StepsSection } from './StepsSection.tsx';
import { Table } from './Table.tsx';

const STAGES: [string, string][] = [
  ['queue_wait', 'Queue'],
  ['page', 'Page'],
  ['load', 'Load'],
  ['network_idle', 'Network idle'],
  ['waits', 'Waits'],
  ['print', 'Print'],
  ['post_processing', 'Post-processing'],
  ['total', 'Total'],
];
/** The steps after the PDF was made, summed from receipt.steps (StepsSection lists each). */
const STEPS_STAGE: [string, string] = ['steps', 'Steps'];

const KINDS: Record<string, string> = {
  pdf: 'PDF render',
  image: 'Image',
  merge: 'Merge',
  merge_source: 'Source of a merge',
  office: 'Office conversion',
  batch_item: 'Batch item',
  transform: 'PDF transform',
  playground: 'Playground render',
};

/** What was rendered, in the caller's terms. */
function sourceText(receipt: Receipt): string {
  const { source } = receipt;
  if (source.type === 'url') return source.url ?? 'a URL';
  if (source.type === 'template') return `template ${source.template_id ?? ''}${source.template_version ? ` v${source.template_version}` : ''}`;
  if (source.type === 'office') return source.filenames?.join(', ') ?? 'an office file';
  if (source.type === 'merge') return plural(source.sources ?? 0, 'source');
  // A transform's input: the PDF's name, and the stored document or preset it came through.
  if (source.type === 'pdf')
    return [source.filenames?.join(', ') ?? 'a PDF', source.document_id, source.preset_id && `preset ${source.preset_id}`].filter(Boolean).join(' · ');
  return source.type === 'markdown' ? 'Markdown' : 'HTML';
}

/** Lets a long URL or value break after its separators rather than anywhere. */
function breakable(text: string): ReactNode {
  const parts = text.split(/(?<=[/?&=,.])/);
  return parts.map((part, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: fixed pieces of one string
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 && <wbr />}
    </Fragment>
  ));
}

function optionValue(value: unknown): string {
  if (typeof value === 'string') return value === '' ? '""' : value;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function ReceiptView({ receipt }: { receipt: Receipt }) {
  const blockedReason = new Map(receipt.blocked.map((entry) => [entry.url, entry.reason]));
  const end = Math.max(1, receipt.timings_ms.total ?? 0, ...receipt.requests.map((request) => request.start_ms + (request.duration_ms ?? 0)));
  // A conversion or a merge has no page: only the stages it went through are shown.
  const shownStages = receipt.render_path ? STAGES : STAGES.filter(([key]) => receipt.timings_ms[key] !== null && receipt.timings_ms[key] !== undefined);
  // The steps after the PDF was made (a transform's, PDF/A, signing...) have their own line before Total: they are most of some totals.
  const stepsMs = receipt.steps?.length ? receipt.steps.reduce((sum, step) => sum + step.ms, 0) : undefined;
  const timings = stepsMs === undefined ? receipt.timings_ms : { ...receipt.timings_ms, steps: stepsMs };
  const stages =
    stepsMs === undefined ? shownStages : [...shownStages.filter(([key]) => key !== 'total'), STEPS_STAGE, ...shownStages.filter(([key]) => key === 'total')];
  const stageInDetail = receipt.failed_stage && receipt.error?.detail.includes(receipt.failed_stage);
  const options = Object.entries(receipt.options).filter(([, value]) => value !== undefined && value !== null);
  return (
    <div className="receipt" data-receipt-id={receipt.id}>
      <div className="receipt-head">
        <StatusPill status={receipt.status} />
        <span>
          <strong>{KINDS[receipt.kind] ?? receipt.kind}</strong> of <span className="receipt-source">{breakable(sourceText(receipt))}</span>
        </span>
      </div>
      <p className="muted small receipt-id">
        {formatDate(receipt.created_at)} · <span className="mono">{receipt.id}</span>
        {receipt.document_id ? (
          <>
            {' '}
            · document <span className="mono">{receipt.document_id}</span>
          </>
        ) : null}
      </p>
      {receipt.error && (
        <p className="receipt-error">
          <code className="error-code">{receipt.error.code}</code> {receipt.error.detail}
          {receipt.failed_stage && !stageInDetail ? <span className="muted"> It stopped while {receipt.failed_stage}.</span> : null}
        </p>
      )}
      <dl className="receipt-facts">
        {stages.map(([key, label]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>{timings[key] === null || timings[key] === undefined ? '—' : `${Math.round(timings[key]!)} ms`}</dd>
          </div>
        ))}
        <div>
          <dt>Pages</dt>
          <dd>{receipt.pages ? plural(receipt.pages.count, 'page') : '—'}</dd>
        </div>
        {receipt.pages && (
          <div>
            <dt>Page size</dt>
            <dd>
              {Math.round(receipt.pages.width_pt)} × {Math.round(receipt.pages.height_pt)} pt
            </dd>
          </div>
        )}
        <div>
          <dt>Size</dt>
          <dd>{receipt.bytes === null ? '—' : formatBytes(receipt.bytes)}</dd>
        </div>
      </dl>
      {receipt.render_path && (
        <dl className="receipt-facts receipt-path">
          <div>
            <dt>Engine</dt>
            <dd>{receipt.render_path.engine}</dd>
          </div>
          <div>
            <dt>Clock</dt>
            <dd>{receipt.render_path.clock}</dd>
          </div>
          <div>
            <dt>Render path</dt>
            <dd>{receipt.render_path.mode}</dd>
          </div>
        </dl>
      )}

      <StepsSection receipt={receipt} />
      <ConformanceSection receipt={receipt} />
      <AccessibilitySection receipt={receipt} />
      <SigningSection receipt={receipt} />

      {receipt.warnings.length > 0 && (
        <section aria-label="Warnings">
          <h3>{plural(receipt.warnings.length, 'warning')}</h3>
          <ul className="receipt-warnings">
            {receipt.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </section>
      )}

      {receipt.render_path && (
        <section aria-label="Requests">
          <h3>{plural(receipt.requests.length, 'request')}</h3>
          {receipt.requests.length === 0 ? (
            <p className="muted small">The page loaded nothing beyond the document.</p>
          ) : (
            <Table
              label="Requests of the render"
              className="compact waterfall"
              columns={[{ label: 'Request' }, { label: 'Status' }, { label: 'Size' }, { label: 'Time', className: 'waterfall-col' }]}
            >
              {receipt.requests.map((request, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the receipt's requests never change once kept, in the order they were made
                <tr key={index} className={request.blocked ? 'request-blocked' : undefined} data-blocked={request.blocked}>
                  <td className="request-url" title={request.url}>
                    <span className="muted small">{request.method}</span> {breakable(request.url)}
                    {request.blocked && <div className="blocked-reason small">Blocked: {blockedReason.get(request.url) ?? 'refused by the network guard'}</div>}
                    {!request.blocked && request.failure && <div className="small muted">{request.failure}</div>}
                  </td>
                  <td className="nowrap">{request.blocked ? 'blocked' : (request.status ?? '—')}</td>
                  <td className="nowrap small">{request.bytes === null ? '—' : formatBytes(request.bytes)}</td>
                  <td className="waterfall-col">
                    <WaterfallBar request={request} end={end} />
                  </td>
                </tr>
              ))}
            </Table>
          )}
          {receipt.requests_not_listed > 0 && <p className="muted small">{plural(receipt.requests_not_listed, 'more request')} counted but not listed.</p>}
        </section>
      )}

      {receipt.console.length > 0 && (
        <section aria-label="Console">
          <h3>Console errors and exceptions</h3>
          <ul className="receipt-console">
            {receipt.console.map((message, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the page's messages, in order, never change once kept
              <li key={index} className="small">
                <strong>{message.kind === 'exception' ? 'Uncaught' : message.level}</strong> <span className="mono">{message.text}</span>
                {message.url ? (
                  <span className="muted">
                    {' '}
                    in {breakable(message.url.slice(0, 120))}
                    {message.line ? `, line ${message.line}` : ''}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-label="Fonts">
        <h3>Fonts in the PDF</h3>
        {receipt.fonts.length === 0 ? (
          <p className="muted small">{receipt.kind === 'image' ? 'An image has no fonts.' : 'No fonts are embedded (no text, or the render failed).'}</p>
        ) : (
          <Table
            label="Fonts in the PDF"
            className="compact"
            columns={[{ label: 'Font' }, { label: 'Type' }, { label: 'Subset' }, ...(receipt.render_path ? [{ label: 'Named by the page' }] : [])]}
          >
            {receipt.fonts.map((font, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: unnamed Type 3 fonts share a name; the list never changes
              <tr key={index}>
                <td className="mono small">{font.name ?? '(unnamed Type 3)'}</td>
                <td className="small">{font.type}</td>
                <td className="small">{font.subset ? 'yes' : 'no'}</td>
                {receipt.render_path && (
                  <td className="small">{font.named_by_page === null ? '—' : font.named_by_page ? 'yes' : 'no: a fallback or a generic family'}</td>
                )}
              </tr>
            ))}
          </Table>
        )}
      </section>

      <section aria-label="Options in force">
        <h3>Options in force</h3>
        <dl className="receipt-options">
          {options.map(([name, value]) => (
            <div key={name}>
              <dt className="mono">{name}</dt>
              <dd className="mono">{breakable(optionValue(value))}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}

function WaterfallBar({ request, end }: { request: ReceiptRequest; end: number }) {
  const left = (request.start_ms / end) * 100;
  const width = Math.max(0.8, ((request.duration_ms ?? end - request.start_ms) / end) * 100);
  return (
    <div
      className="waterfall-track"
      title={`starts at ${Math.round(request.start_ms)} ms, takes ${request.duration_ms === null ? '?' : Math.round(request.duration_ms)} ms`}
    >
      <span
        className={`waterfall-bar ${request.blocked ? 'blocked' : ''}`}
        style={{ left: `${Math.min(99, left)}%`, width: `${Math.min(100 - Math.min(99, left), width)}%` }}
      />
      <span className="waterfall-ms small">{request.duration_ms === null ? '…' : `${Math.round(request.duration_ms)} ms`}</span>
    </div>
  );
}
