// API keys: issue (shown once), usage this month against the plan, plan and auto-store changes,
// rotate (new key shown once), revoke. Usage refreshes every few seconds and on usage events.
// Paged like documents (newest first), so the screen stays quick with thousands of keys.

import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { createKey, listKeyPage, listPlans, revokeKey, rotateKey, updateKey, type KeyPage } from '../api/keys.ts';
import { subscribeEvents } from '../api/events.ts';
import type { IssuedKey, KeyRecord, Plan } from '../api/types.ts';
import { useAction, useCursorPages, useInterval, useLoad } from '../lib/hooks.ts';
import { Pager } from '../components/Pager.tsx';
import { formatDay, formatNumber } from '../lib/format.ts';
import { Card, EmptyState, ErrorNote, Loading, PageHeader } from '../components/Page.tsx';
import { UsageBar } from '../components/Bars.tsx';
import { ConfirmDialog, Dialog } from '../components/Dialog.tsx';
import { SecretField } from '../components/Copy.tsx';
import { PlanNotes } from '../components/PlanNotes.tsx';
import { Select } from '../components/Select.tsx';
import { ACTIONS_COLUMN, Table } from '../components/Table.tsx';

const PAGE_SIZE = 50;

export function KeysPage() {
  const pages = useCursorPages();
  const { cursor } = pages;
  const page = useLoad((signal) => listKeyPage({ limit: PAGE_SIZE, cursor }, signal), [cursor]);
  const keys = {
    ...page,
    data: page.data?.data,
    setData: (update: (list: KeyPage['data'] | undefined) => KeyPage['data'] | undefined) =>
      page.setData((current) => current && { ...current, data: update(current.data) ?? [] }),
  };
  const plans = useLoad((signal) => listPlans(signal), []);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<{ title: string; key: IssuedKey } | null>(null);
  const [confirm, setConfirm] = useState<{ kind: 'rotate' | 'revoke'; key: KeyRecord } | null>(null);
  const [rowError, setRowError] = useState<string>();

  // Quiet refresh: usage moves as keys render elsewhere.
  const setPage = page.setData;
  const refresh = useCallback(
    () =>
      void listKeyPage({ limit: PAGE_SIZE, cursor }).then(
        (data) => setPage(() => data),
        () => undefined,
      ),
    [setPage, cursor],
  );
  useInterval(refresh, 5000);
  useEffect(() => {
    const events = subscribeEvents((event) => {
      if (/usage/i.test(event.type)) refresh();
    });
    return () => events.close();
  }, [refresh]);

  const change = useAction(async (key: KeyRecord, patch: Partial<Pick<KeyRecord, 'plan' | 'auto_store' | 'receipts'>>) => {
    const updated = await updateKey(key.id, patch);
    keys.setData((list) => list?.map((item) => (item.id === updated.id ? { ...item, ...updated } : item)));
  });
  useEffect(() => setRowError(change.error), [change.error]);

  const confirmAction = useAction(async (kind: 'rotate' | 'revoke', key: KeyRecord) => {
    if (kind === 'rotate') {
      const rotated = await rotateKey(key.id);
      setShown({ title: `New key for “${key.name}”`, key: rotated });
    } else {
      await revokeKey(key.id);
      keys.setData((list) => list?.filter((item) => item.id !== key.id));
    }
    setConfirm(null);
  });

  const planOf = (id: string) => plans.data?.find((plan) => plan.id === id);

  return (
    <>
      <PageHeader
        title="API keys"
        description="Each key belongs to one account with a plan. The secret is shown once, when it is issued or rotated."
        actions={
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            New key
          </button>
        }
      />
      <ErrorNote onRetry={keys.reload}>{keys.error}</ErrorNote>
      <ErrorNote>{rowError}</ErrorNote>
      <Card>
        {keys.loading && !keys.data ? (
          <Loading label="Loading keys…" />
        ) : keys.data && keys.data.length === 0 && pages.page === 0 ? (
          <EmptyState
            title="No API keys yet"
            action={
              <button type="button" className="button primary" onClick={() => setCreating(true)}>
                Create the first key
              </button>
            }
          >
            A key lets a program call POST /v1/pdf. Create one, copy it, and render.
          </EmptyState>
        ) : (
          keys.data && (
            <>
              <Table
                label="API keys"
                columns={[
                  { label: 'Name' },
                  { label: 'Plan' },
                  { label: 'This month', className: 'usage-col', title: 'Documents this month against the plan' },
                  { label: 'Auto-store' },
                  { label: 'Receipts', title: 'Which renders keep a receipt (what the page loaded, warnings, timings): those stored, all, or none' },
                  ACTIONS_COLUMN,
                ]}
              >
                {keys.data.map((key) => (
                  <tr key={key.id} data-key-id={key.id}>
                    <td>
                      <div className="strong">{key.name}</div>
                      <div className="muted small">
                        <span className="mono">{key.id}</span> · {formatDay(key.created_at)}
                      </div>
                    </td>
                    <td>
                      <Select
                        small
                        label={`Plan of ${key.name}`}
                        value={key.plan}
                        disabled={change.busy}
                        choices={[...(planOf(key.plan) ? [] : [key.plan]), ...(plans.data ?? []).map((plan) => ({ value: plan.id, label: plan.name }))]}
                        onChange={(plan) => void change.run(key, { plan })}
                      />
                    </td>
                    <td>
                      {key.usage.used === null ? (
                        <span
                          className="danger-text"
                          title="The server cannot read this key's usage file; its calls fail until the operator runs npm run cli -- doctor."
                        >
                          Usage record damaged
                        </span>
                      ) : (
                        <UsageBar used={key.usage.used} limit={key.usage.limit} />
                      )}
                    </td>
                    <td>
                      <label className="switch">
                        <input
                          type="checkbox"
                          checked={key.auto_store}
                          disabled={change.busy}
                          onChange={(event) => void change.run(key, { auto_store: event.target.checked })}
                          aria-label={`Auto-store for ${key.name}`}
                        />
                        <span aria-hidden="true" />
                      </label>
                    </td>
                    <td>
                      <Select
                        small
                        label={`Receipts for ${key.name}`}
                        value={key.receipts ?? 'stored'}
                        disabled={change.busy}
                        choices={['stored', 'all', 'off']}
                        onChange={(receipts) => void change.run(key, { receipts: receipts as KeyRecord['receipts'] })}
                      />
                    </td>
                    <td className="row-actions">
                      <button type="button" className="button ghost small" onClick={() => setConfirm({ kind: 'rotate', key })}>
                        Rotate
                      </button>
                      <button type="button" className="button ghost small danger-text" onClick={() => setConfirm({ kind: 'revoke', key })}>
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </Table>
              <Pager
                page={pages.page}
                pageSize={PAGE_SIZE}
                count={keys.data.length}
                hasNext={Boolean(page.data?.next_cursor)}
                busy={page.loading}
                onPrevious={pages.previous}
                onNext={() => pages.next(page.data?.next_cursor)}
              />
            </>
          )
        )}
      </Card>
      {plans.data && <PlanNotes plans={plans.data} />}

      <CreateKeyDialog
        open={creating}
        plans={plans.data ?? []}
        onClose={() => setCreating(false)}
        onCreated={(issued) => {
          setCreating(false);
          setShown({ title: `Key “${issued.name}” created`, key: issued });
          pages.reset();
          keys.reload();
        }}
      />
      <Dialog
        open={shown !== null}
        title={shown?.title ?? ''}
        onClose={() => {
          setShown(null);
          keys.reload();
        }}
        footer={
          <button type="button" className="button primary" onClick={() => setShown(null)}>
            Done
          </button>
        }
      >
        {shown && (
          <>
            <p>Copy the key now: it is not shown again. The server keeps only a hash of it.</p>
            <SecretField value={shown.key.key} label="API key" />
          </>
        )}
      </Dialog>
      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.kind === 'rotate' ? 'Rotate this key?' : 'Revoke this key?'}
        confirmLabel={confirm?.kind === 'rotate' ? 'Rotate key' : 'Revoke key'}
        busy={confirmAction.busy}
        error={confirmAction.error}
        onClose={() => {
          setConfirm(null);
          confirmAction.setError(undefined);
        }}
        onConfirm={() => confirm && void confirmAction.run(confirm.kind, confirm.key)}
      >
        {confirm?.kind === 'rotate'
          ? `“${confirm.key.name}” gets a new secret; the current one stops working at once. Plan, usage, templates and documents stay.`
          : `“${confirm?.key.name}” stops working at once. Its documents and templates stay visible here until their retention ends.`}
      </ConfirmDialog>
    </>
  );
}

function CreateKeyDialog({ open, plans, onClose, onCreated }: { open: boolean; plans: Plan[]; onClose: () => void; onCreated: (key: IssuedKey) => void }) {
  const [name, setName] = useState('');
  const [plan, setPlan] = useState('free');
  const [autoStore, setAutoStore] = useState(false);
  const create = useAction(createKey);
  useEffect(() => {
    if (open) {
      setName('');
      setAutoStore(false);
      create.setError(undefined);
    }
  }, [open, create.setError]);
  useEffect(() => {
    if (plans.length > 0 && !plans.some((item) => item.id === plan)) setPlan(plans[0]!.id);
  }, [plans, plan]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const issued = await create.run({ name: name.trim(), plan, auto_store: autoStore });
    if (issued) onCreated(issued);
  };

  return (
    <Dialog open={open} title="New API key" onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <div className="field">
          <label className="field-label" htmlFor="new-key-name">
            Name
          </label>
          <input
            id="new-key-name"
            className="input"
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder="e.g. Billing service"
            autoFocus
            required
            maxLength={100}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor="new-key-plan">
            Plan
          </label>
          <select id="new-key-plan" className="select" value={plan} onChange={(event) => setPlan(event.target.value)}>
            {plans.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name} — {formatNumber(item.monthly_documents)} documents a month
              </option>
            ))}
          </select>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={autoStore} onChange={(event) => setAutoStore(event.target.checked)} />
          <span>
            Auto-store
            <span className="muted block">Keep a copy of every render for the plan’s retention, without store: true.</span>
          </span>
        </label>
        {create.error && (
          <p className="error-text" role="alert">
            {create.error}
          </p>
        )}
        <div className="dialog-foot inline">
          <button type="button" className="button ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={create.busy}>
            {create.busy ? 'Creating…' : 'Create key'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
