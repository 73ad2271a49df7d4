// The Activity screen (docs/operations.md#the-activity-screen): the first screen after sign-in.
// The last hour of renders as small charts and the most recent renders as a table, live over the
// admin event stream (render.completed and instance.stats: every instance's on PostgreSQL); each
// render with a receipt opens it in a side panel, closed when the filters hide its row.

import { useCallback, useEffect, useMemo, useState } from 'react';
import { getActivity, getReceipt, type Activity, type Receipt, type RenderActivity } from '../api/activity.ts';
import { listKeys } from '../api/keys.ts';
import { subscribeEvents } from '../api/events.ts';
import { describeFailure } from '../api/client.ts';
import { useInterval, useLoad } from '../lib/hooks.ts';
import { oneFetchAtATime } from '../lib/one-fetch-at-a-time.ts';
import { formatClock, formatNumber } from '../lib/format.ts';
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from '../components/Page.tsx';
import { LiveDot, type LiveState } from '../components/LiveDot.tsx';
import { KeySelect, keyName } from '../components/KeySelect.tsx';
import { StatusPill } from '../components/Bars.tsx';
import { TimeChart, type ChartSeries } from '../components/TimeChart.tsx';
import { ReceiptView } from '../components/ReceiptView.tsx';
import { SidePanel } from '../components/SidePanel.tsx';
import { Table } from '../components/Table.tsx';

export function ActivityPage() {
  const keys = useLoad((signal) => listKeys(signal), []);
  const [activity, setActivity] = useState<Activity>();
  const [error, setError] = useState<string>();
  const [live, setLive] = useState<LiveState>('connecting');
  const [keyId, setKeyId] = useState('');
  const [status, setStatus] = useState<'' | 'succeeded' | 'failed'>('');
  const [openId, setOpenId] = useState<string | null>(null);
  const [receipt, setReceipt] = useState<{ id: string; data?: Receipt; error?: string }>();

  // One fetch at a time; events that arrive meanwhile ask for exactly one more.
  const refresh = useMemo(() => {
    const run = oneFetchAtATime(() =>
      getActivity().then(
        (next) => {
          setActivity(next);
          setError(undefined);
        },
        (failure: unknown) => setError(describeFailure(failure)),
      ),
    );
    return () => run('activity');
  }, []);

  useEffect(() => {
    refresh();
    const events = subscribeEvents((event) => {
      if (event.type === 'render.completed' || event.type === 'instance.stats') refresh();
    }, setLive);
    return () => events.close();
  }, [refresh]);
  // Without the event stream the screen still moves, more slowly.
  useInterval(refresh, live === 'live' ? null : 5000);

  const openReceipt = useCallback((id: string) => {
    setOpenId(id);
    setReceipt({ id });
    getReceipt(id).then(
      (data) => setReceipt((current) => (current?.id === id ? { id, data } : current)),
      (failure: unknown) => setReceipt((current) => (current?.id === id ? { id, error: describeFailure(failure) } : current)),
    );
  }, []);

  const closeReceipt = useCallback(() => {
    setOpenId(null);
    setReceipt(undefined);
  }, []);

  const rows = (activity?.recent ?? []).filter((render) => (!keyId || render.key_id === keyId) && (!status || render.status === status));
  // A receipt stays open only while its row is in view: the filters hide it, the panel goes.
  const openRowShown = openId === null || rows.some((render) => render.receipt_id === openId);
  useEffect(() => {
    if (!openRowShown) closeReceipt();
  }, [openRowShown, closeReceipt]);
  const charts = useMemo(() => chartsOf(activity), [activity]);
  const hour = activity?.minutes ?? [];
  const total = hour.reduce((sum, minute) => sum + minute.renders, 0);
  const failed = hour.reduce((sum, minute) => sum + minute.failed, 0);

  return (
    <>
      <PageHeader
        title="Activity"
        description="Renders of the last hour, live: every instance's when they share PostgreSQL. Open a render's receipt to see what its page loaded, what was blocked, its fonts and warnings."
        actions={<LiveDot state={live} />}
      />
      <ErrorNote onRetry={refresh}>{error}</ErrorNote>
      {!activity && !error ? (
        <Loading label="Loading activity…" />
      ) : (
        <>
          <section className="activity-summary" aria-label="The last hour">
            <div>
              <span className="summary-value" data-testid="renders-last-hour">
                {formatNumber(total)}
              </span>
              <span className="summary-label">renders in the last hour</span>
            </div>
            <div>
              <span className="summary-value">{formatNumber(failed)}</span>
              <span className="summary-label">failed</span>
            </div>
            {(activity?.instances ?? []).map((instance) => (
              <div key={instance.instance} className="summary-instance">
                <span className="summary-value">
                  {instance.slots_busy}/{instance.slots}
                </span>
                <span className="summary-label">
                  slots busy · {instance.queued} waiting · {instance.browser_restarts} browser restarts
                  <br />
                  <span className="mono small" title={instance.instance}>
                    {instance.render_path.engine} · render path {instance.render_path.mode}
                  </span>
                </span>
              </div>
            ))}
          </section>
          <div className="chart-grid" data-testid="activity-charts">
            <TimeChart title="Renders per minute" times={charts.times} series={charts.renders} range={charts.range} />
            <TimeChart title="Duration (ms)" times={charts.times} series={charts.duration} unit="ms" range={charts.range} />
            <TimeChart title="Queue and slots busy" times={charts.times} series={charts.load} range={charts.range} />
            <TimeChart title="Browser restarts" times={charts.times} series={charts.restarts} range={charts.range} />
          </div>
          <FailureCodes minutes={hour} />
          <div className="toolbar">
            <KeySelect id="activity-key-filter" label="Key" keys={keys.data ?? []} value={keyId} allLabel="All keys" onChange={setKeyId} />
            <div className="inline-field">
              <label className="field-label" htmlFor="activity-status-filter">
                Status
              </label>
              <select id="activity-status-filter" className="select" value={status} onChange={(event) => setStatus(event.target.value as typeof status)}>
                <option value="">All</option>
                <option value="succeeded">Succeeded</option>
                <option value="failed">Failed</option>
              </select>
            </div>
          </div>
          <Card title="Recent renders">
            {rows.length === 0 ? (
              <EmptyState title={activity?.recent.length ? 'No render matches the filters' : 'No renders yet'}>
                Renders appear here as they end, from every instance.
              </EmptyState>
            ) : (
              <Table label="Recent renders" columns={['Time', 'Key', 'Source', 'Pages', 'ms', 'Status', 'Receipt'].map((label) => ({ label }))}>
                {rows.map((render, index) => (
                  <RenderRow
                    // biome-ignore lint/suspicious/noArrayIndexKey: renders have no id of their own; the list is newest first and replaced whole
                    key={`${render.at}-${index}`}
                    render={render}
                    keyLabel={render.key_id ? keyName(keys.data, render.key_id) : 'playground'}
                    open={openId !== null && openId === render.receipt_id}
                    onOpen={openId !== null && openId === render.receipt_id ? closeReceipt : openReceipt}
                  />
                ))}
              </Table>
            )}
          </Card>
          {receipt && (
            <SidePanel title="Receipt" onClose={closeReceipt}>
              {receipt.error ? (
                <ErrorNote>{receipt.error}</ErrorNote>
              ) : receipt.data ? (
                <ReceiptView receipt={receipt.data} />
              ) : (
                <Loading label="Loading the receipt…" />
              )}
            </SidePanel>
          )}
        </>
      )}
    </>
  );
}

function RenderRow({ render, keyLabel, open, onOpen }: { render: RenderActivity; keyLabel: string; open: boolean; onOpen: (id: string) => void }) {
  return (
    <tr data-status={render.status} data-receipt-id={render.receipt_id ?? undefined} className={open ? 'selected' : undefined}>
      <td className="nowrap">{formatClock(render.at, true)}</td>
      <td>{keyLabel}</td>
      <td>
        {render.source}
        {render.kind !== 'pdf' && render.kind !== render.source ? <span className="muted small"> · {render.kind.replace('_', ' ')}</span> : null}
      </td>
      <td>{render.pages ?? '—'}</td>
      <td>{formatNumber(render.ms)}</td>
      <td>
        <StatusPill status={render.status} />
        {render.code ? <code className="error-code"> {render.code}</code> : null}
      </td>
      <td>
        {render.receipt_id ? (
          <button type="button" className="button ghost small" aria-pressed={open} onClick={() => onOpen(render.receipt_id!)}>
            Receipt
          </button>
        ) : (
          <span className="muted small" title="No receipt was kept: options.receipt, or the key's receipts setting">
            —
          </span>
        )}
      </td>
    </tr>
  );
}

function FailureCodes({ minutes }: { minutes: Activity['minutes'] }) {
  const codes = new Map<string, number>();
  for (const minute of minutes) for (const [code, count] of Object.entries(minute.by_code)) codes.set(code, (codes.get(code) ?? 0) + count);
  if (codes.size === 0) return null;
  return (
    <p className="failure-codes small">
      Failures this hour:{' '}
      {[...codes.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([code, count]) => (
          <span key={code} className="failure-code">
            <code className="error-code">{code}</code> {count}
          </span>
        ))}
    </p>
  );
}

const GREEN = '#16a34a';
const RED = '#dc2626';
const BLUE = '#2563eb';
const AMBER = '#d97706';
const GREY = '#6b7280';

function chartsOf(activity: Activity | undefined): {
  times: number[];
  /** One x range for the four charts: the minutes shown, half a minute before (bars are a minute wide) and room after the newest. */
  range: [number, number];
  renders: ChartSeries[];
  duration: ChartSeries[];
  load: ChartSeries[];
  restarts: ChartSeries[];
} {
  const minutes = activity?.minutes ?? [];
  const times = minutes.map((minute) => Date.parse(minute.minute) / 1000);
  const last = times.at(-1) ?? Math.floor(Date.now() / 60_000) * 60;
  const first = times[0] ?? last - 3600;
  return {
    times,
    range: [first - 30, last + 150],
    renders: [
      { label: 'succeeded', color: GREEN, values: minutes.map((minute) => minute.succeeded), bars: true },
      { label: 'failed', color: RED, values: minutes.map((minute) => minute.failed), bars: true },
    ],
    duration: [
      { label: 'p50', color: BLUE, values: minutes.map((minute) => minute.p50_ms) },
      { label: 'p95', color: AMBER, values: minutes.map((minute) => minute.p95_ms) },
    ],
    load: [
      { label: 'waiting', color: AMBER, values: minutes.map((minute) => minute.queued) },
      { label: 'slots busy', color: BLUE, values: minutes.map((minute) => minute.slots_busy) },
    ],
    restarts: [{ label: 'restarts', color: GREY, values: minutes.map((minute) => minute.browser_restarts), bars: true }],
  };
}
