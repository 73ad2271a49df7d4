// The result side of a playground: the PDF drawn inline with a line of facts, a download button and
// the error of the last attempt. Presentational; the page owns the request.

import type { ReactNode } from 'react';
import { ErrorNote } from './Page.tsx';
import { PdfPreview, downloadPdf } from './PdfPreview.tsx';

export interface PdfResultCardProps {
  bytes: Uint8Array | null;
  /** A line of facts about the result (size, time, ...), shown once there is one. */
  facts?: ReactNode;
  downloadName: string;
  error?: string;
  busy: boolean;
  label: string;
  empty: string;
}

export function PdfResultCard({ bytes, facts, downloadName, error, busy, label, empty }: PdfResultCardProps) {
  return (
    <div className="card preview-card">
      <div className="card-head">
        <h2 className="card-title">PDF</h2>
        <div className="card-actions">
          {bytes && facts}
          <button type="button" className="button small" disabled={!bytes} onClick={() => bytes && downloadPdf(bytes, downloadName)}>
            Download
          </button>
        </div>
      </div>
      <ErrorNote>{error}</ErrorNote>
      <PdfPreview bytes={bytes} label={label} busy={busy} empty={empty} />
    </div>
  );
}
