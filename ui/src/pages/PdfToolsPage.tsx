// The PDF tools screen (docs/api.md#pdf-tools): take a PDF (an upload, or a stored document of any
// key), transform it in steps (TransformCard), see what is inside it, preview its pages as
// thumbnails, and download them as images. Nothing here is stored or charged (the admin routes).
// The documents screen opens it as /admin/pdf-tools?document=<id>&op=<step> (DocumentToolActions).

import { useState } from 'react';
import { listDocuments } from '../api/documents.ts';
import { listKeys } from '../api/keys.ts';
import { fileToBase64, imagesZip, inspectPdf, pageImages, type PageImage, type PdfInspection, type PdfSource } from '../api/pdf-tools.ts';
import { useAction, useLoad } from '../lib/hooks.ts';
import { Card, ErrorNote, PageHeader } from '../components/Page.tsx';
import { InspectionView } from '../components/InspectionView.tsx';
import { downloadPdf } from '../components/PdfPreview.tsx';
import { TransformCard } from '../components/TransformCard.tsx';
import { newStep, OPERATIONS, type StepDraft } from '../lib/pdf-steps.ts';

const PREVIEW_PAGES = '1-12';

/** What the address asks for: a stored document, and a first step (split, compress). */
function linked(): { documentId: string; steps: StepDraft[] } {
  const query = new URLSearchParams(location.search);
  const op = OPERATIONS.find((operation) => operation.op === query.get('op'))?.op;
  return { documentId: query.get('document') ?? '', steps: op ? [newStep(op)] : [] };
}

export function PdfToolsPage() {
  const documents = useLoad((signal) => listDocuments({ limit: 100 }, signal), []);
  const keys = useLoad((signal) => listKeys(signal), []);
  const [file, setFile] = useState<File | null>(null);
  const [documentId, setDocumentId] = useState(() => linked().documentId);
  const [steps, setSteps] = useState<StepDraft[]>(() => linked().steps);
  const [password, setPassword] = useState('');
  const [format, setFormat] = useState<'png' | 'jpeg' | 'webp'>('png');
  const [dpi, setDpi] = useState(150);
  const [pages, setPages] = useState('');
  const [inspection, setInspection] = useState<PdfInspection | null>(null);
  const [previews, setPreviews] = useState<PageImage[]>([]);

  const source = async (): Promise<PdfSource> => {
    const secret = password ? { password } : {};
    if (file) return { pdf: await fileToBase64(file), ...secret };
    if (documentId) return { document_id: documentId, ...secret };
    throw new Error('Choose a PDF file or a stored document first.');
  };
  const storedName = (documents.data?.data ?? []).find((document) => document.id === documentId)?.filename;
  const filename = file?.name ?? storedName ?? 'document.pdf';
  const listed = (documents.data?.data ?? []).some((document) => document.id === documentId);
  const open = useAction(async () => {
    const chosen = await source();
    setInspection(null);
    setPreviews([]);
    const [found, drawn] = await Promise.all([inspectPdf(chosen), pageImages(chosen, { pages: undefined, width: 160, format: 'png' }).catch(() => [])]);
    setInspection(found);
    setPreviews(drawn.slice(0, 12));
  });
  const download = useAction(async () => {
    const { bytes, filename } = await imagesZip(await source(), { format, dpi, pages: pages || undefined });
    // A JSON upload carries no file name: the zip is named after the file chosen here.
    downloadPdf(bytes, file ? `${file.name.replace(/\.pdf$/i, '')}-images.zip` : filename, 'application/zip');
  });

  return (
    <>
      <PageHeader
        title="PDF tools"
        description="Transform any PDF (an upload or a stored document) in steps, look inside it and draw its pages as images. Nothing is stored or counted."
      />
      <Card title="The PDF">
        <div className="form-grid">
          <label className="field">
            <span className="field-label">Upload a PDF</span>
            <input
              type="file"
              accept="application/pdf,.pdf"
              data-testid="pdf-file"
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                if (event.target.files?.[0]) setDocumentId('');
              }}
            />
          </label>
          <label className="field">
            <span className="field-label">or a stored document</span>
            <select
              value={documentId}
              onChange={(event) => {
                setDocumentId(event.target.value);
                setFile(null);
              }}
            >
              <option value="">—</option>
              {documentId && !listed && <option value={documentId}>{documentId}</option>}
              {(documents.data?.data ?? []).map((document) => (
                <option key={document.id} value={document.id}>
                  {document.filename ?? document.id}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">Password (encrypted PDFs)</span>
            <input type="password" value={password} autoComplete="off" onChange={(event) => setPassword(event.target.value)} />
          </label>
        </div>
        <div className="toolbar">
          <button type="button" className="button primary" onClick={() => void open.run()} disabled={open.busy || (!file && !documentId)}>
            {open.busy ? 'Reading…' : 'Inspect and preview'}
          </button>
        </div>
        <ErrorNote>{open.error}</ErrorNote>
      </Card>

      <TransformCard source={source} filename={filename} keys={keys.data ?? []} steps={steps} onSteps={setSteps} />

      {previews.length > 0 && (
        <Card title={`Pages${inspection && inspection.page_count > previews.length ? ` (the first ${previews.length} of ${inspection.page_count})` : ''}`}>
          <div className="page-previews" data-testid="page-previews">
            {previews.map((image) => (
              <figure key={image.page}>
                <img src={`data:${image.content_type};base64,${image.data}`} alt={`Page ${image.page}`} width={image.width / 1.25} />
                <figcaption className="muted small">{image.page}</figcaption>
              </figure>
            ))}
          </div>
        </Card>
      )}

      {inspection && (
        <Card title="Inside">
          <InspectionView inspection={inspection} />
        </Card>
      )}

      {inspection && (
        <Card title="Download pages as images">
          <div className="form-grid">
            <label className="field">
              <span className="field-label">Format</span>
              <select value={format} onChange={(event) => setFormat(event.target.value as typeof format)}>
                <option value="png">PNG</option>
                <option value="jpeg">JPEG</option>
                <option value="webp">WebP</option>
              </select>
            </label>
            <label className="field">
              <span className="field-label">Resolution (dpi)</span>
              <input type="number" min={10} max={600} value={dpi} onChange={(event) => setDpi(Number(event.target.value))} />
            </label>
            <label className="field">
              <span className="field-label">Pages</span>
              <input type="text" placeholder={`all (e.g. ${PREVIEW_PAGES})`} value={pages} onChange={(event) => setPages(event.target.value)} />
            </label>
          </div>
          <div className="toolbar">
            <button type="button" className="button" onClick={() => void download.run()} disabled={download.busy}>
              {download.busy ? 'Drawing…' : 'Download zip'}
            </button>
          </div>
          <ErrorNote>{download.error}</ErrorNote>
        </Card>
      )}
    </>
  );
}
