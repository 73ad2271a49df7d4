// One render receipt, read by an operator: the outcome, the stages' times, the requests as a
// waterfall (refused ones in red, with the guard's reason), console errors, fonts in the PDF and
// warnings. Presentational: the page loads the receipt (docs/api.md#render-receipts).

import type { Receipt, ReceiptRequest } from '../api/activity.ts';
import { formatBytes, formatDate } from '../lib/format.ts';
import { StatusPill } from './Bars.tsx';
import { ConformanceSection } from './ConformanceSection.tsx';

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

export function ReceiptView({ receipt }: { receipt: Receipt }) {
  const blockedReason = new Map(receipt.blocked.map((entry) => [entry.url, entry.reason]));
  const end = Math.max(1, receipt.timings_ms.total ?? 0, ...receipt.requests.map((request) => request.start_ms + (request.duration_ms ?? 0)));
  return (
    <div className="receipt" data-receipt-id={receipt.id}>
      <div className="receipt-head">
        <StatusPill status={receipt.status} />
        <span className="mono small">{receipt.id}</span>
        <span className="muted small">
          {receipt.kind} · {receipt.source.type}
          {receipt.source.url ? ` · ${receipt.source.url}` : ''}
          {receipt.source.template_id ? ` · ${receipt.source.template_id}` : ''} · {formatDate(receipt.created_at)}
        </span>
      </div>
      {receipt.error && (
        <p className="receipt-error">
          <code className="error-code">{receipt.error.code}</code> {receipt.error.detail}
          {receipt.failed_stage ? <span className="muted small"> (while {receipt.failed_stage})</span> : null}
        </p>
      )}
      <dl className="receipt-facts">
        {STAGES.map(([key, label]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>{receipt.timings_ms[key] === null || receipt.timings_ms[key] === undefined ? '—' : `${Math.round(receipt.timings_ms[key]!)} ms`}</dd>
          </div>
        ))}
        <div>
          <dt>Pages</dt>
          <dd>{receipt.pages ? `${receipt.pages.count} · ${Math.round(receipt.pages.width_pt)}×${Math.round(receipt.pages.height_pt)} pt` : '—'}</dd>
        </div>
        <div>
          <dt>Render path</dt>
          <dd>{receipt.render_path ? `${receipt.render_path.engine} · ${receipt.render_path.clock} clock · ${receipt.render_path.mode}` : '—'}</dd>
        </div>
      </dl>

      <ConformanceSection receipt={receipt} />

      {receipt.warnings.length > 0 && (
        <section aria-label="Warnings">
          <h3>Warnings</h3>
          <ul className="receipt-warnings">
            {receipt.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </section>
      )}

      <section aria-label="Requests">
        <h3>Requests ({receipt.requests.length})</h3>
        {receipt.requests.length === 0 ? (
          <p className="muted small">The page made no requests.</p>
        ) : (
          <table className="table compact waterfall" aria-label="Requests of the render">
            <thead>
              <tr>
                <th>Request</th>
                <th>Status</th>
                <th>Size</th>
                <th className="waterfall-col">Time</th>
              </tr>
            </thead>
            <tbody>
              {receipt.requests.map((request, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the receipt's requests never change once kept, in the order they were made
                <tr key={index} className={request.blocked ? 'request-blocked' : undefined} data-blocked={request.blocked}>
                  <td className="request-url" title={request.url}>
                    <span className="muted small">{request.method}</span> {request.url}
                    {request.blocked && <div className="blocked-reason small">Blocked: {blockedReason.get(request.url) ?? 'refused by the network guard'}</div>}
                    {!request.blocked && request.failure && <div className="small muted">{request.failure}</div>}
                  </td>
                  <td className="nowrap">{request.blocked ? 'blocked' : (request.status ?? '—')}</td>
                  <td className="nowrap small">{formatBytes(request.bytes)}</td>
                  <td className="waterfall-col">
                    <WaterfallBar request={request} end={end} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {receipt.requests_not_listed > 0 && <p className="muted small">{receipt.requests_not_listed} more requests were counted but not listed.</p>}
      </section>

      {receipt.console.length > 0 && (
        <section aria-label="Console">
          <h3>Console errors and exceptions</h3>
          <ul className="receipt-console">
            {receipt.console.map((message, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the page's messages, in order, never change once kept
              <li key={index} className="mono small">
                <strong>{message.kind === 'exception' ? 'Uncaught' : message.level}</strong> {message.text}
                {message.url ? (
                  <span className="muted">
                    {' '}
                    ({message.url.slice(0, 80)}
                    {message.line ? `:${message.line}` : ''})
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
          <table className="table compact" aria-label="Fonts in the PDF">
            <thead>
              <tr>
                <th>Font</th>
                <th>Type</th>
                <th>Subset</th>
                <th>Named by the page</th>
              </tr>
            </thead>
            <tbody>
              {receipt.fonts.map((font, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: unnamed Type 3 fonts share a name; the list never changes
                <tr key={index}>
                  <td className="mono small">{font.name ?? '(unnamed Type 3)'}</td>
                  <td className="small">{font.type}</td>
                  <td className="small">{font.subset ? 'yes' : 'no'}</td>
                  <td className="small">{font.named_by_page === null ? '—' : font.named_by_page ? 'yes' : 'no: a fallback or a generic family'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
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
