// The PDF tools on one stored document of the documents screen: inspect it (shown in a dialog)
// and download its pages as images (a zip of PNGs at 150 dpi). Kept apart from the list's columns.

import { useState } from 'react';
import { imagesZip, inspectDocument, type PdfInspection } from '../api/pdf-tools.ts';
import { useAction } from '../lib/hooks.ts';
import { Dialog } from './Dialog.tsx';
import { ErrorNote, Loading } from './Page.tsx';
import { InspectionView } from './InspectionView.tsx';
import { downloadPdf } from './PdfPreview.tsx';

export function DocumentToolActions({ id, name }: { id: string; name: string }) {
  const [inspecting, setInspecting] = useState<{ inspection?: PdfInspection; error?: string } | null>(null);
  const images = useAction(async () => {
    const { bytes, filename } = await imagesZip({ document_id: id }, { dpi: 150 });
    downloadPdf(bytes, filename, 'application/zip');
  });
  const inspect = async () => {
    setInspecting({});
    try {
      setInspecting({ inspection: await inspectDocument(id) });
    } catch (failure) {
      setInspecting({ error: (failure as Error).message });
    }
  };
  return (
    <>
      <button type="button" className="button ghost small" onClick={() => void inspect()}>
        Inspect
      </button>
      <button type="button" className="button ghost small" onClick={() => void images.run()} disabled={images.busy} title={images.error}>
        {images.busy ? 'Drawing…' : 'Images'}
      </button>
      <Dialog open={inspecting !== null} wide title={`Inside ${name}`} onClose={() => setInspecting(null)}>
        {inspecting?.error && <ErrorNote>{inspecting.error}</ErrorNote>}
        {inspecting && !inspecting.error && !inspecting.inspection && <Loading label="Reading the PDF…" />}
        {inspecting?.inspection && <InspectionView inspection={inspecting.inspection} />}
      </Dialog>
    </>
  );
}
