// The template editor's head: the name (edited in place), the template's id, owner and last save,
// and the save state with Export, Delete and Save.

import { timeAgo } from '../../lib/format.ts';

export function EditorToolbar({
  name,
  onName,
  templateId,
  ownerName,
  savedAt,
  saveState,
  saving,
  canSave,
  exporting,
  onSave,
  onExport,
  onDelete,
}: {
  name: string;
  onName: (name: string) => void;
  templateId: string;
  ownerName: string;
  savedAt: string;
  /** "Saved" a moment after a save, "Unsaved changes" while dirty, else empty. */
  saveState: string;
  saving: boolean;
  canSave: boolean;
  exporting: boolean;
  onSave: () => void;
  onExport: () => void;
  onDelete: () => void;
}) {
  return (
    <header className="editor-head">
      <div className="editor-title">
        <label className="sr-only" htmlFor="template-name">
          Template name
        </label>
        <input id="template-name" className="title-input" value={name} onChange={(event) => onName(event.target.value)} maxLength={200} />
        <div className="muted small">
          <span className="mono">{templateId}</span> · key {ownerName} · saved {timeAgo(savedAt)}
        </div>
      </div>
      <div className="page-actions">
        <span className="save-state" role="status">
          {saveState}
        </span>
        <button
          type="button"
          className="button ghost"
          onClick={onExport}
          disabled={exporting}
          title="Download the template with its assets as one archive (saved state)"
        >
          Export
        </button>
        <button type="button" className="button ghost danger-text" onClick={onDelete}>
          Delete
        </button>
        <button type="button" className="button primary" onClick={onSave} disabled={saving || !canSave} title="Save (Ctrl+S)">
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </header>
  );
}
