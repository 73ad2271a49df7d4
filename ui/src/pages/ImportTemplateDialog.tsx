// Importing an exported template archive (.tar.gz) as a new template of a key: the key and the
// file are chosen in one dialog, so the button that opens it is always a real button.

import { useEffect, useState } from 'react';
import { importTemplate } from '../api/templates.ts';
import type { KeyRecord } from '../api/types.ts';
import { useAction } from '../lib/hooks.ts';
import { navigate } from '../lib/router.ts';
import { FormDialog } from '../components/Dialog.tsx';
import { FilePicker } from '../components/FilePicker.tsx';
import { KeySelect } from '../components/KeySelect.tsx';

export function ImportTemplateDialog({ open, keys, defaultKey, onClose }: { open: boolean; keys: KeyRecord[]; defaultKey: string; onClose: () => void }) {
  const [keyId, setKeyId] = useState('');
  const [archive, setArchive] = useState<File>();
  const importing = useAction(async (key: string, file: File) => {
    const created = await importTemplate(key, file);
    onClose();
    navigate(`/admin/templates/${created.template_id}`);
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is reset when the dialog opens, not when the key list changes under it
  useEffect(() => {
    if (!open) return;
    setKeyId(defaultKey || keys[0]?.id || '');
    setArchive(undefined);
    importing.setError(undefined);
  }, [open]);

  const missing = keys.length === 0 ? 'Create a key first: an imported template belongs to one.' : !archive ? 'Choose the archive to import.' : undefined;

  return (
    <FormDialog
      open={open}
      title="Import a template archive"
      onClose={onClose}
      onSubmit={() => archive && keyId && void importing.run(keyId, archive)}
      error={importing.error}
      busy={importing.busy}
      ready={!missing && Boolean(keyId)}
      submitLabel="Import"
      busyLabel="Importing…"
    >
      <p className="muted small">A .tar.gz made by Export (GET /v1/templates/{'{id}'}/export) becomes a new template at version 1, with its assets.</p>
      <KeySelect id="import-template-key" label="Owned by key" keys={keys} value={keyId} onChange={setKeyId} />
      <div className="field">
        <span className="field-label">Archive</span>
        <FilePicker
          id="import-template-file"
          label="Choose archive…"
          chosen={archive?.name}
          accept=".gz,.tgz,application/gzip"
          onChange={(event) => setArchive(event.target.files?.[0])}
        />
      </div>
      {missing && <p className="hint">{missing}</p>}
    </FormDialog>
  );
}
