// The template editor's preview: the live PDF with how long it took (not stored, not charged), or
// what went wrong.

import { ErrorNote, Spinner } from '../../components/Page.tsx';
import { PdfPreview } from '../../components/PdfPreview.tsx';
import { RuleTable } from '../../components/RuleTable.tsx';
import { UaReportView } from '../../components/UaReportView.tsx';
import { describeReportHeader } from '../../lib/rule-reports.ts';
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
            `Rendered in ${preview.ms} ms · not stored, not charged${preview.report ? ` · ${describeReportHeader(preview.report)}` : ''}${preview.ua ? ` · ${preview.ua}` : ''}`
          ) : (
            ''
          )}
        </span>
      </div>
      {preview.error && <ErrorNote>{preview.error}</ErrorNote>}
      {preview.error && preview.rules && preview.rules.length > 0 && (
        <div className="rule-report">
          <RuleTable label="Rules the e-invoice breaks" fatal={preview.rules} narrow />
        </div>
      )}
      {preview.error && preview.uaReport && <UaReportView report={preview.uaReport} />}
      <PdfPreview bytes={preview.bytes} label="Template preview" busy={preview.busy} empty="The preview appears here." />
    </section>
  );
}
