// Batches of every key with live progress (Server-Sent Events from GET /admin/v1/events), and
// one batch's per-item results and webhook delivery attempts.

import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { getBatch, listBatches } from '../api/batches.ts';
import { listKeys } from '../api/keys.ts';
import { subscribeEvents } from '../api/events.ts';
import { ApiFailure } from '../api/client.ts';
import type { Batch, Page, WebhookAttempt } from '../api/types.ts';
import { useCursorPages, useInterval, useLoad } from '../lib/hooks.ts';
import { oneFetchAtATime } from '../lib/one-fetch-at-a-time.ts';
import { formatDate, timeAgo } from '../lib/format.ts';
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from '../components/Page.tsx';
import { LiveDot, type LiveState } from '../components/LiveDot.tsx';
import { keyName } from '../components/KeySelect.tsx';
import { KeyFilterBar, Table } from '../components/Table.tsx';
import { ProgressBar, StatusPill } from '../components/Bars.tsx';
import { ListCard } from '../components/ListCard.tsx';
import { Link } from '../components/Link.tsx';

const PAGE_SIZE = 25;

export function BatchesPage() {
  // duplicates: a keyed, paged list’s state, alike in shape to DocumentsPage’s; the paging itself is useCursorPages.
  const [keyId, setKeyId] = useState('');
  const pages = useCursorPages();
  const { cursor } = pages;
  const keys = useLoad((signal) => listKeys(signal), []);
  const [missing, setMissing] = useState(false);
  // A list is a snapshot that may be older than an event already handled (a batch's refresh answered
  // before the list did): its unfinished batches are fetched once more after it is shown.
  const refreshUnfinished = useRef<(page: Page<Batch>) => void>(() => undefined);
  const batches = useLoad(
    (signal) =>
      listBatches({ key_id: keyId || undefined, cursor, limit: PAGE_SIZE }, signal).then(
        (page) => {
          if (!signal.aborted) refreshUnfinished.current(page);
          return page;
        },
        (error: unknown) => {
          if (error instanceof ApiFailure && error.status === 404 && error.code === 'not_found') setMissing(true);
          throw error;
        },
      ),
    [keyId, cursor],
  );
  const [open, setOpen] = useState<string | null>(null);
  const [live, setLive] = useState<LiveState>('connecting');
  const [details, setDetails] = useState<Record<string, Batch>>({});

  const replaceBatch = useCallback(
    (batch: Batch) => {
      batches.setData((page) => page && { ...page, data: page.data.map((item) => (item.batch_id === batch.batch_id ? { ...item, ...batch } : item)) });
      setDetails((current) => (current[batch.batch_id] ? { ...current, [batch.batch_id]: batch } : current));
    },
    [batches.setData],
  );

  // Each event names a batch: fetch that batch again, one fetch per batch at a time; an event during
  // a fetch asks for one more (that fetch may have been answered before the event: issue 40).
  const refreshBatch = useMemo(() => oneFetchAtATime((id) => getBatch(id).then(replaceBatch)), [replaceBatch]);
  refreshUnfinished.current = (page) => {
    for (const batch of page.data) if (batch.status !== 'completed') refreshBatch(batch.batch_id);
  };
  const reloadList = batches.reload;
  const batchesRef = useRef<Batch[] | undefined>(undefined);
  batchesRef.current = batches.data?.data;
  useEffect(() => {
    if (missing) return;
    const events = subscribeEvents(
      (event) => {
        const data = event.data as { batch_id?: unknown; batch?: { batch_id?: unknown } } | null;
        const id = typeof data?.batch_id === 'string' ? data.batch_id : typeof data?.batch?.batch_id === 'string' ? data.batch.batch_id : undefined;
        if (!id) return;
        const known = batchesRef.current?.some((batch) => batch.batch_id === id);
        if (known) refreshBatch(id);
        else reloadList();
      },
      (state) => {
        setLive(state);
        // Nothing is replayed (docs/api.md#admin-event-stream): what moved before this (re)connection is read again.
        if (state === 'live') reloadList();
      },
    );
    return () => events.close();
  }, [missing, refreshBatch, reloadList]);

  // Without the event stream, unfinished batches are polled.
  const unfinished = (batches.data?.data ?? []).filter((batch) => batch.status !== 'completed');
  useInterval(
    () => {
      for (const batch of unfinished) refreshBatch(batch.batch_id);
    },
    live === 'live' || unfinished.length === 0 ? null : 2000,
  );

  const toggle = (id: string) => {
    setOpen((current) => (current === id ? null : id));
    if (!details[id])
      void getBatch(id).then(
        (batch) => setDetails((current) => ({ ...current, [id]: batch })),
        () => undefined,
      );
  };

  if (missing) {
    return (
      <>
        <PageHeader title="Batches" />
        <Card>
          <EmptyState title="Batches are not available on this server yet">
            This server does not answer GET /admin/v1/batches; update it to a version with batch rendering.
          </EmptyState>
        </Card>
      </>
    );
  }

  const rows = batches.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Batches"
        description="Many documents in one call (POST /v1/pdf/batch). Background batches render two at a time; progress updates live."
        actions={<LiveDot state={live} />}
      />
      {/* duplicates: calls of the shared filter bar and ListCard, alike in shape to TemplatesPage’s. */}
      <KeyFilterBar id="batch-key-filter" keys={keys.data} value={keyId} onChange={setKeyId} pages={pages} />
      <ErrorNote onRetry={batches.reload}>{batches.error}</ErrorNote>
      <ListCard
        list={batches}
        rows={batches.data?.data}
        loadingLabel="Loading batches…"
        paging={{ pages, pageSize: PAGE_SIZE, nextCursor: batches.data?.next_cursor }}
        empty={<EmptyState title="No batches yet">Send POST /v1/pdf/batch with a key on a plan that includes batch (Starter and up).</EmptyState>}
      >
        <Table
          label="Batches"
          columns={[{ label: 'Batch' }, { label: 'Key' }, { label: 'Status' }, { label: 'Progress', className: 'progress-col' }, { label: 'Created' }]}
        >
          {rows.map((batch) => {
            const failed = batch.failed ?? batch.results?.filter((item) => item.status === 'failed').length ?? 0;
            const succeeded = batch.succeeded ?? batch.results?.filter((item) => item.status === 'succeeded').length ?? 0;
            const done = succeeded + failed;
            return (
              <Fragment key={batch.batch_id}>
                <tr data-batch-id={batch.batch_id} data-status={batch.status}>
                  <td>
                    <button type="button" className="row-toggle" aria-expanded={open === batch.batch_id} onClick={() => toggle(batch.batch_id)}>
                      <span className="chevron" aria-hidden="true">
                        {open === batch.batch_id ? '▾' : '▸'}
                      </span>
                      <span className="mono">{batch.batch_id}</span>
                    </button>
                  </td>
                  <td>{keyName(keys.data, batch.key_id)}</td>
                  <td>
                    <StatusPill status={batch.status} />
                  </td>
                  <td>
                    <div className="progress-cell">
                      <ProgressBar done={done} failed={failed} total={batch.total} />
                      <span className="muted small nowrap" data-testid="batch-counts">
                        {done}/{batch.total}
                        {failed > 0 ? ` · ${failed} failed` : ''}
                      </span>
                    </div>
                  </td>
                  <td className="muted nowrap">{timeAgo(batch.created_at)}</td>
                </tr>
                {open === batch.batch_id && (
                  <tr className="detail-row">
                    <td colSpan={5}>{details[batch.batch_id] ? <BatchDetail batch={details[batch.batch_id]!} /> : <Loading label="Loading results…" />}</td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </Table>
      </ListCard>
    </>
  );
}

function BatchDetail({ batch }: { batch: Batch }) {
  const attempts = batch.deliveries ?? batch.webhook_deliveries ?? batch.webhook?.attempts ?? [];
  const webhookUrl = batch.webhook_url ?? batch.webhook?.url;
  return (
    <div className="batch-detail">
      <h3>Items</h3>
      <Table
        label={`Items of ${batch.batch_id}`}
        className="compact"
        columns={[{ label: 'Item' }, { label: 'File' }, { label: 'Status' }, { label: 'Document' }, { label: 'Error' }]}
      >
        {(batch.results ?? []).map((item) => (
          // People count from 1; the API's index stays 0-based (shown in the tooltip).
          <tr key={item.index} data-index={item.index}>
            <td className="nowrap" title={`index ${item.index} in the API`}>
              item {item.index + 1}
            </td>
            <td className="wrap-anywhere">{item.filename ?? <span className="muted">—</span>}</td>
            <td>
              <StatusPill status={item.status} />
            </td>
            <td className="mono small">
              {item.document_id ? <Link href={`/admin/documents?id=${encodeURIComponent(item.document_id)}`}>{item.document_id}</Link> : '—'}
            </td>
            <td>
              {item.error ? (
                <>
                  <code className="error-code">{item.error.code}</code> <span className="small">{item.error.detail}</span>
                </>
              ) : (
                '—'
              )}
            </td>
          </tr>
        ))}
      </Table>
      <h3>Webhook</h3>
      {!webhookUrl && attempts.length === 0 ? (
        <p className="muted small">No webhook_url was given with this batch.</p>
      ) : (
        <>
          {webhookUrl && <p className="mono small">{webhookUrl}</p>}
          {attempts.length === 0 ? (
            <p className="muted small">No delivery attempt yet: it is sent when the batch completes.</p>
          ) : (
            <Table
              label="Webhook delivery attempts"
              className="compact"
              columns={[{ label: 'Attempt' }, { label: 'When' }, { label: 'Answer' }, { label: 'Next try' }]}
            >
              {attempts.map((attempt, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the attempts are an append-only history, so an entry's position is its identity
                <tr key={index}>
                  <td>{attempt.attempt ?? index + 1}</td>
                  <td className="nowrap">{formatDate(attempt.at ?? attempt.attempted_at)}</td>
                  <td>{describeAttempt(attempt)}</td>
                  <td className="nowrap">{attempt.next_attempt_at ? formatDate(attempt.next_attempt_at) : '—'}</td>
                </tr>
              ))}
            </Table>
          )}
        </>
      )}
    </div>
  );
}

function describeAttempt(attempt: WebhookAttempt): string {
  const status = attempt.status_code ?? attempt.status;
  const error = typeof attempt.error === 'string' ? attempt.error : attempt.error ? (attempt.error.detail ?? attempt.error.code ?? '') : '';
  const parts = [typeof status === 'number' ? `HTTP ${status}` : (status ?? ''), error].filter(Boolean);
  return parts.join(' · ') || (attempt.ok ? 'delivered' : '—');
}
