// The PDF tools screen (docs/api.md#pdf-tools): take a PDF (an upload, or a stored document of any
// key), transform it in steps (TransformCard), see what is inside it, preview its pages as
// thumbnails, and download them as images. Nothing here is stored or charged (the admin routes).
// The documents screen opens it as /admin/pdf-tools?document=<id>&op=<step> (DocumentToolActions).

import { useState } from 'react';
import { listDocuments } from '../api/documents.ts';
import { listKeys } from '../api/keys.ts';
import {
  DPI_BOUNDS,
  fileToBase64,
  IMAGE_FORMATS,
  imagesZip,
  inspectPdf,
  pageImages,
  type PageImage,
  type PdfInspection,
  type PdfSource,
} from '../api/pdf-tools.ts';
import { useAction, useLoad } from '../lib/hooks.ts';
import { Card, ErrorNote, PageHeader } from '../components/Page.tsx';
import { InspectionView } from '../components/InspectionView.tsx';
import { downloadPdf } from '../components/PdfPreview.tsx';
import { TransformCard } from '../components/TransformCard.tsx';
import { FilePicker } from '../components/FilePicker.tsx';
import { Field, NumberField, TextField } from '../components/Fields.tsx';
import { Select } from '../components/Select.tsx';
import { documentName } from '../lib/document-name.ts';
import type { StoredDocument } from '../api/types.ts';
import { newStep, OPERATIONS, type StepDraft } from '../lib/pdf-steps.ts';

const PREVIEW_PAGES = '1-12';

/** A stored document as the Documents screen names it: its filename, else what made it and when; the id beside it. */
function documentLabel(document: StoredDocument): string {
  return `${documentName(document)} (${document.id})`;
}

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
  const storedDocuments = documents.data?.data ?? [];
  const storedName = storedDocuments.find((document) => document.id === documentId)?.filename;
  const filename = file?.name ?? storedName ?? 'document.pdf';
  const listed = storedDocuments.some((document) => document.id === documentId);
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
      <Card title="The PDF" className="padded">
        <div className="form-grid">
          <Field label="Upload a PDF" id="pdf-file">
            <FilePicker
              id="pdf-file"
              label="Choose PDF"
              accept="application/pdf,.pdf"
              testId="pdf-file"
              chosen={file?.name}
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                if (event.target.files?.[0]) setDocumentId('');
              }}
            />
          </Field>
          <Field label="or a stored document" id="pdf-document">
            <Select
              id="pdf-document"
              value={documentId}
              choices={[
                { value: '', label: '—' },
                ...(documentId && !listed ? [{ value: documentId, label: documentId }] : []),
                ...storedDocuments.map((document) => ({ value: document.id, label: documentLabel(document) })),
              ]}
              onChange={(next) => {
                setDocumentId(next);
                setFile(null);
              }}
            />
          </Field>
          <TextField label="Password (encrypted PDFs)" id="pdf-password" type="password" autoComplete="off" value={password} onChange={setPassword} />
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
        <Card
          className="padded"
          title={`Pages${inspection && inspection.page_count > previews.length ? ` (the first ${previews.length} of ${inspection.page_count})` : ''}`}
        >
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
        <Card title="Inside" className="padded">
          <InspectionView inspection={inspection} />
        </Card>
      )}

      {inspection && (
        <Card title="Download pages as images" className="padded">
          <div className="form-grid">
            <Field label="Format" id="images-format">
              <Select id="images-format" value={format} choices={IMAGE_FORMATS} onChange={(next) => setFormat(next as typeof format)} />
            </Field>
            <NumberField label="Resolution (dpi)" id="images-dpi" bounds={DPI_BOUNDS} value={dpi} placeholder={150} onChange={(next) => setDpi(next ?? 150)} />
            <TextField label="Pages" id="images-pages" placeholder={`all (e.g. ${PREVIEW_PAGES})`} value={pages} onChange={setPages} />
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
