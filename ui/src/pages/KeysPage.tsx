// API keys: issue (shown once), usage this month against the plan, plan and auto-store changes,
// rotate (new key shown once), revoke. Usage refreshes every few seconds and on usage events.
// Paged like documents (newest first), so the screen stays quick with thousands of keys.

import { useCallback, useEffect, useState } from 'react';
import { listKeyPage, listPlans, revokeKey, rotateKey, updateKey, type KeyPage } from '../api/keys.ts';
import { subscribeEvents } from '../api/events.ts';
import type { IssuedKey, KeyRecord } from '../api/types.ts';
import { useAction, useCursorPages, useInterval, useLoad } from '../lib/hooks.ts';
import { EmptyState, ErrorNote, PageHeader } from '../components/Page.tsx';
import { ConfirmDialog, Dialog } from '../components/Dialog.tsx';
import { SecretField } from '../components/Copy.tsx';
import { PlanNotes } from '../components/PlanNotes.tsx';
import { ListCard } from '../components/ListCard.tsx';
import { Table } from '../components/Table.tsx';
import { CreateKeyDialog } from './keys/CreateKeyDialog.tsx';
import { KEY_COLUMNS, KeyRow, type KeyPatch } from './keys/KeyRow.tsx';
import { AssistantSetup } from './keys/AssistantSetup.tsx';

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

  const change = useAction(async (key: KeyRecord, patch: KeyPatch) => {
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
      <ListCard
        list={keys}
        rows={keys.data}
        loadingLabel="Loading keys…"
        paging={{ pages, pageSize: PAGE_SIZE, nextCursor: page.data?.next_cursor }}
        empty={
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
        }
      >
        <Table label="API keys" columns={KEY_COLUMNS}>
          {keys.data?.map((key) => (
            <KeyRow
              key={key.id}
              apiKey={key}
              plans={plans.data}
              busy={change.busy}
              onChange={(patch) => void change.run(key, patch)}
              onRotate={() => setConfirm({ kind: 'rotate', key })}
              onRevoke={() => setConfirm({ kind: 'revoke', key })}
            />
          ))}
        </Table>
      </ListCard>
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
            <AssistantSetup apiKey={shown.key.key} />
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
