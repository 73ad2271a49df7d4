// The template editor's preview: the live PDF with how long it took (not stored, not charged), or
// what went wrong.

import { ErrorNote, Spinner } from '../../components/Page.tsx';
import { PdfPreview } from '../../components/PdfPreview.tsx';
import type { PreviewState } from './editor-hooks.ts';

export function PreviewPane({ preview }: { preview: PreviewState }) {
  return (
    <section className="editor-pane preview-pane" aria-label="Preview">
      <div className="pane-head">
        <span>Preview</span>
        <span className="muted small" role="status" data-testid="preview-status">
          {preview.busy ? (
            <>
              <Spinner /> Rendering…
            </>
          ) : preview.error ? (
            ''
          ) : preview.ms !== undefined ? (
            `Rendered in ${preview.ms} ms · not stored, not charged`
          ) : (
            ''
          )}
        </span>
      </div>
      {preview.error && <ErrorNote>{preview.error}</ErrorNote>}
      <PdfPreview bytes={preview.bytes} label="Template preview" busy={preview.busy} empty="The preview appears here." />
    </section>
  );
}
