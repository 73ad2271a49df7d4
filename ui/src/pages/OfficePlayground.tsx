// The admin playground's "Office file" tab: drop a Word, Excel, PowerPoint, OpenDocument, RTF,
// text or CSV file, pick the conversion options, see the PDF inline (a preview through the admin
// route: not stored, not charged) and the same call as curl with an API key.

import { useState, type DragEvent, type FormEvent } from 'react';
import { describeFailure } from '../api/client.ts';
import { OFFICE_EXTENSIONS, previewOffice, type OfficeOptions } from '../api/office.ts';
import { Card, PageHeader, Spinner } from '../components/Page.tsx';
import { Check, Field } from '../components/OptionsForm.tsx';
import { PdfResultCard } from '../components/PdfResultCard.tsx';
import { CodeTabs } from '../components/CodeTabs.tsx';
import { shellQuote } from '../lib/snippets.ts';
import { formatBytes } from '../lib/format.ts';

const ACCEPT = OFFICE_EXTENSIONS.map((extension) => `.${extension}`).join(',');

export function OfficePlayground() {
  const [file, setFile] = useState<File>();
  const [options, setOptions] = useState<OfficeOptions>({});
  const [result, setResult] = useState<{ bytes: Uint8Array; ms: number } | null>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const set = (field: Partial<OfficeOptions>) => setOptions({ ...options, ...field });
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined && value !== '' && value !== false)) as OfficeOptions;

  const convert = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!file || busy) return;
    setBusy(true);
    setError(undefined);
    const started = performance.now();
    try {
      const { bytes } = await previewOffice({ file: await base64Of(file), filename: file.name, ...(Object.keys(given).length ? { options: given } : {}) });
      setResult({ bytes, ms: Math.round(performance.now() - started) });
    } catch (failure) {
      setError(describeFailure(failure));
    } finally {
      setBusy(false);
    }
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) setFile(dropped);
  };

  const curl = [
    `curl -sS ${location.origin}/v1/convert/office`,
    `  -H "Authorization: Bearer $QUIRE_API_KEY"`,
    `  -F ${shellQuote(`file=@${file?.name ?? 'report.docx'}`)}`,
    ...Object.entries(given).map(([name, value]) => `  -F ${shellQuote(`${name}=${String(value)}`)}`),
    `  -o ${shellQuote(pdfName(file?.name ?? 'report.docx'))}`,
  ].join(' \\\n');

  return (
    <>
      <PageHeader
        title="Office file"
        description="Convert a Word, Excel, PowerPoint, OpenDocument, RTF, text or CSV file with LibreOffice. A preview: nothing is stored or charged."
      />
      <div className="playground-grid">
        <form className="card playground-form" onSubmit={convert}>
          <div className="form-top">
            <div className="form-actions">
              <button type="submit" className="button primary" disabled={!file || busy}>
                {busy ? (
                  <>
                    <Spinner /> Converting…
                  </>
                ) : (
                  'Convert to PDF'
                )}
              </button>
            </div>
          </div>
          <label
            className={dragging ? 'drop-zone dragging' : 'drop-zone'}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={drop}
          >
            <input type="file" accept={ACCEPT} onChange={(event) => setFile(event.target.files?.[0])} data-testid="office-file" />
            <span>{file ? `${file.name} · ${formatBytes(file.size)}` : 'Drop a file here, or choose one'}</span>
            <span className="hint">{OFFICE_EXTENSIONS.join(', ')}</span>
          </label>
          <div className="options-grid">
            <Check label="Landscape" checked={options.landscape ?? false} onChange={(landscape) => set({ landscape })} />
            <Check
              label="Each sheet on one page"
              checked={options.single_page_sheets ?? false}
              onChange={(single_page_sheets) => set({ single_page_sheets })}
            />
            <Check label="Lossless images" checked={options.lossless_images ?? false} onChange={(lossless_images) => set({ lossless_images })} />
            <Check label="PDF/UA (tagged)" checked={options.pdf_ua ?? false} onChange={(pdf_ua) => set({ pdf_ua })} />
            <Field label="Pages" id="office-pages" hint='Such as "1-3, 5"'>
              <input
                id="office-pages"
                className="input"
                value={options.page_ranges ?? ''}
                onChange={(event) => set({ page_ranges: event.target.value || undefined })}
              />
            </Field>
            <Field label="PDF/A" id="office-pdfa">
              <select
                id="office-pdfa"
                className="select"
                value={options.pdf_a ?? ''}
                onChange={(event) => set({ pdf_a: (event.target.value || undefined) as OfficeOptions['pdf_a'] })}
              >
                <option value="">No</option>
                <option>PDF/A-1b</option>
                <option>PDF/A-2b</option>
                <option>PDF/A-3b</option>
              </select>
            </Field>
            <Field label="Password" id="office-password" hint="For a protected file">
              <input
                id="office-password"
                className="input"
                type="password"
                autoComplete="off"
                value={options.password ?? ''}
                onChange={(event) => set({ password: event.target.value || undefined })}
              />
            </Field>
          </div>
        </form>
        <div className="playground-result">
          <PdfResultCard
            bytes={result?.bytes ?? null}
            facts={
              result && (
                <span className="muted small">
                  {formatBytes(result.bytes.byteLength)} · {result.ms} ms
                </span>
              )
            }
            downloadName={pdfName(file?.name ?? 'document')}
            error={error}
            busy={busy}
            label="Converted PDF"
            empty="Choose a file and press Convert to PDF."
          />
        </div>
      </div>
      <Card title="The same call from code" className="snippet-card">
        <CodeTabs label="Equivalent request" samples={[{ name: 'curl (API key)', code: curl }]} />
      </Card>
    </>
  );
}

function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function pdfName(filename: string): string {
  return `${filename.replace(/\.[^.]+$/, '')}.pdf`;
}
