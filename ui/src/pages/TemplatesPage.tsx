// Templates of every key: filter by key, open one in the editor, or start a new one for a key.

import { useEffect, useState } from 'react';
import { listKeys } from '../api/keys.ts';
import { createTemplate, listTemplates } from '../api/templates.ts';
import type { KeyRecord } from '../api/types.ts';
import { useAction, useCursorPages, useLoad } from '../lib/hooks.ts';
import { formatDate, timeAgo } from '../lib/format.ts';
import { navigate } from '../lib/router.ts';
import { EmptyState, ErrorNote, PageHeader } from '../components/Page.tsx';
import { ListCard } from '../components/ListCard.tsx';
import { TextField } from '../components/Fields.tsx';
import { KeySelect, keyName } from '../components/KeySelect.tsx';
import { KeyFilterBar, Table } from '../components/Table.tsx';
import { Link } from '../components/Link.tsx';
import { FormDialog } from '../components/Dialog.tsx';
import { ImportTemplateDialog } from './ImportTemplateDialog.tsx';
import { STARTER_DATA, STARTER_HTML } from './starter-template.ts';

const PAGE_SIZE = 50;

export function TemplatesPage() {
  const [keyId, setKeyId] = useState(() => new URLSearchParams(location.search).get('key_id') ?? '');
  const pages = useCursorPages();
  const keys = useLoad((signal) => listKeys(signal), []);
  const { cursor } = pages;
  const [importing, setImporting] = useState(false);
  const templates = useLoad((signal) => listTemplates({ key_id: keyId || undefined, cursor, limit: PAGE_SIZE }, signal), [keyId, cursor]);
  const [creating, setCreating] = useState(false);

  return (
    <>
      <PageHeader
        title="Templates"
        description={
          <>
            HTML or Markdown with placeholders such as <code>{'{{customer.name}}'}</code>, rendered by id with a data object.
          </>
        }
        actions={
          <>
            <button type="button" className="button" onClick={() => setImporting(true)}>
              Import archive
            </button>
            <button type="button" className="button primary" onClick={() => setCreating(true)} disabled={!keys.data?.length}>
              New template
            </button>
          </>
        }
      />
      <KeyFilterBar id="template-key-filter" keys={keys.data} value={keyId} onChange={setKeyId} pages={pages} />
      <ErrorNote onRetry={templates.reload}>{templates.error}</ErrorNote>
      <ListCard
        list={templates}
        rows={templates.data?.data}
        loadingLabel="Loading templates…"
        paging={{ pages, pageSize: PAGE_SIZE, nextCursor: templates.data?.next_cursor }}
        empty={
          <EmptyState
            title={keyId ? 'This key has no templates' : 'No templates yet'}
            action={
              keys.data?.length ? (
                <button type="button" className="button primary" onClick={() => setCreating(true)}>
                  Create a template
                </button>
              ) : (
                <Link className="button" href="/admin/keys">
                  Create a key first
                </Link>
              )
            }
          >
            A template belongs to one key and is rendered with POST /v1/pdf and its template_id.
          </EmptyState>
        }
      >
        <Table
          label="Templates"
          columns={[
            { label: 'Name' },
            { label: 'Format' },
            { label: 'Version', className: 'num' },
            { label: 'Assets', className: 'num' },
            { label: 'Key' },
            { label: 'Updated' },
          ]}
        >
          {templates.data?.data.map((template) => (
            <tr key={template.template_id} className="clickable" onClick={() => navigate(`/admin/templates/${template.template_id}`)}>
              <td>
                <Link className="strong row-link" href={`/admin/templates/${template.template_id}`}>
                  {template.name}
                </Link>
                <div className="mono muted small">{template.template_id}</div>
              </td>
              <td>{template.format === 'markdown' ? 'Markdown' : template.format === 'docx' ? 'Word' : 'HTML'}</td>
              <td className="num mono">{template.version === undefined ? '—' : `v${template.version}`}</td>
              <td className="num">{template.asset_count ?? '—'}</td>
              <td>{keyName(keys.data, template.key_id)}</td>
              <td className="muted nowrap" title={formatDate(template.updated_at)}>
                {timeAgo(template.updated_at)}
              </td>
            </tr>
          ))}
        </Table>
      </ListCard>
      <ImportTemplateDialog open={importing} keys={keys.data ?? []} defaultKey={keyId} onClose={() => setImporting(false)} />
      <NewTemplateDialog open={creating} keys={keys.data ?? []} defaultKey={keyId} onClose={() => setCreating(false)} />
    </>
  );
}

function NewTemplateDialog({ open, keys, defaultKey, onClose }: { open: boolean; keys: KeyRecord[]; defaultKey: string; onClose: () => void }) {
  const [name, setName] = useState('');
  const [keyId, setKeyId] = useState('');
  const create = useAction(createTemplate);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is reset when the dialog opens, not when the key list or the default key changes under it
  useEffect(() => {
    if (!open) return;
    setName('');
    setKeyId(defaultKey || keys[0]?.id || '');
    create.setError(undefined);
  }, [open]);

  const submit = async () => {
    const created = await create.run({ key_id: keyId, name: name.trim(), html: STARTER_HTML, sample_data: STARTER_DATA });
    if (created) {
      onClose();
      navigate(`/admin/templates/${created.template_id}`);
    }
  };

  return (
    // duplicates: a call of the shared FormDialog with this form’s fields, alike in shape to CreateKeyDialog’s.
    <FormDialog
      open={open}
      title="New template"
      onClose={onClose}
      onSubmit={() => void submit()}
      error={create.error}
      busy={create.busy}
      ready={Boolean(keyId)}
      submitLabel="Create and edit"
      busyLabel="Creating…"
    >
      <TextField label="Name" id="new-template-name" value={name} onChange={setName} placeholder="e.g. Invoice" required maxLength={200} />
      <KeySelect id="new-template-key" label="Owned by key" keys={keys} value={keyId} onChange={setKeyId} />
      <p className="muted small">It starts from an invoice example you can change in the editor.</p>
    </FormDialog>
  );
}
