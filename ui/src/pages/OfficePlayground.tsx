// The admin playground's "Office file" tab: drop a Word, Excel, PowerPoint, OpenDocument, RTF,
// text or CSV file, pick the conversion options (a header and footer drawn on its pages among
// them, attachments and an e-invoice too), see the PDF inline (a preview through the admin route: not stored, not charged) and the
// same call as curl with an API key.

import { useMemo, useState, type FormEvent } from 'react';
import { describeFailure, failureRules } from '../api/client.ts';
import type { RuleFinding } from '../api/einvoice.ts';
import { HEADER_FOOTER_FITS, OFFICE_EXTENSIONS, previewOffice, type HeaderFooterFit, type OfficeOptions } from '../api/office.ts';
import { Card, PageHeader, Spinner } from '../components/Page.tsx';
import { Check, SelectField, TextField } from '../components/Fields.tsx';
import { PdfAField } from '../components/PdfAField.tsx';
import { SignField } from '../components/SignField.tsx';
import { HeaderFooterForm } from '../components/HeaderFooterForm.tsx';
import { AttachmentsForm } from '../components/AttachmentsForm.tsx';
import { SampleDataEditor } from '../components/SampleDataEditor.tsx';
import { FileDropZone } from '../components/FileDropZone.tsx';
import { PdfResultCard } from '../components/PdfResultCard.tsx';
import { CodeTabs } from '../components/CodeTabs.tsx';
import { curlFormSnippet } from '../lib/snippets.ts';
import { parseSampleData } from '../lib/template-lint.ts';
import { readBase64 } from '../lib/read-file.ts';
import { appliedSteps, type AppliedStep } from '../lib/applied-steps.ts';

const ACCEPT = OFFICE_EXTENSIONS.map((extension) => `.${extension}`).join(',');

const FIT_HINTS: Record<HeaderFooterFit, string> = {
  shrink: 'Each page’s content is scaled down, centred, just enough to clear the boxes.',
  margin: 'Drawn at full size in the page’s own margin, which must be tall enough.',
};

/** Options that only place a header or footer: sent only with one. */
const HEADS_LAYOUT = new Set<string>(['header_footer_fit', 'header_footer_margin']);

export function OfficePlayground() {
  const [file, setFile] = useState<File>();
  const [options, setOptions] = useState<OfficeOptions>({});
  const [dataText, setDataText] = useState('');
  const data = useMemo(() => parseSampleData(dataText, 'Data'), [dataText]);
  const [result, setResult] = useState<{ bytes: Uint8Array; ms: number; applied: AppliedStep[] } | null>(null);
  const [error, setError] = useState<string>();
  const [rules, setRules] = useState<RuleFinding[]>();
  const [busy, setBusy] = useState(false);
  const set = (field: Partial<OfficeOptions>) => setOptions({ ...options, ...field });
  const hasHeads = options.header !== undefined || options.footer !== undefined;
  const given = Object.fromEntries(
    Object.entries(options).filter(([name, value]) => value !== undefined && value !== '' && value !== false && (hasHeads || !HEADS_LAYOUT.has(name))),
  ) as OfficeOptions;
  // The preview has no key to sign with: the signature goes only into the curl sample.
  const { sign: _sign, ...unsigned } = given;
  // Data fills the header's and footer's placeholders; without either it has nothing to do.
  const givenData = hasHeads && data.ok && data.value !== null ? data.value : undefined;

  const convert = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!file || busy || !data.ok) return;
    setBusy(true);
    setError(undefined);
    const started = performance.now();
    try {
      const { bytes, headers } = await previewOffice({
        file: await readBase64(file),
        filename: file.name,
        ...(Object.keys(unsigned).length ? { options: unsigned } : {}),
        ...(givenData ? { data: givenData } : {}),
      });
      setResult({ bytes, ms: Math.round(performance.now() - started), applied: appliedSteps(given, headers) });
    } catch (failure) {
      // A failed conversion takes the earlier result off the screen: its preview, size and Download belong to another file (issue 39, item 12).
      setResult(null);
      setRules(failureRules(failure));
      setError(describeFailure(failure));
    } finally {
      setBusy(false);
    }
  };

  // Form fields as the route reads them: text as it is, a header or footer with variants and the data as JSON.
  // Attachments go as file parts named attachments; their relationships, if any, in an attachments field without content.
  const { attachments, ...rest } = given;
  const fields: [string, string][] = Object.entries(rest).map(([name, value]) => [name, typeof value === 'object' ? JSON.stringify(value) : String(value)]);
  if (attachments?.some((entry) => entry.relationship))
    fields.push(['attachments', JSON.stringify(attachments.map(({ content: _content, ...entry }) => entry))]);
  if (givenData) fields.push(['data', JSON.stringify(givenData)]);
  const curl = curlFormSnippet({
    origin: location.origin,
    path: '/v1/convert/office',
    filename: file?.name ?? 'report.docx',
    fields,
    files: (attachments ?? []).map((entry) => ['attachments', entry.filename]),
    output: pdfName(file?.name ?? 'report.docx'),
  });

  // duplicates: the option rows below are one call per option of the shared field rows (Fields.tsx), alike only in shape (OptionsForm, DocumentOptionsForm).
  return (
    <>
      <PageHeader
        title="Office file"
        description="Convert a Word, Excel, PowerPoint, OpenDocument, RTF, text or CSV file with LibreOffice. A preview: nothing is stored or charged."
      />
      <div className="playground-grid">
        <form className="card playground-form" onSubmit={convert}>
          <FileDropZone file={file} accept={ACCEPT} prompt="Drop a file here" hint={OFFICE_EXTENSIONS.join(', ')} testId="office-file" onFile={setFile} />
          <div className="form-top end">
            <div className="form-actions">
              <button type="submit" className="button primary" disabled={!file || busy || !data.ok}>
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
          <div className="options-grid">
            <div className="checks">
              <Check label="Landscape" checked={options.landscape ?? false} onChange={(landscape) => set({ landscape })} />
              <Check
                label="Each sheet on one page"
                checked={options.single_page_sheets ?? false}
                onChange={(single_page_sheets) => set({ single_page_sheets })}
              />
              <Check label="Lossless images" checked={options.lossless_images ?? false} onChange={(lossless_images) => set({ lossless_images })} />
              <Check label="PDF/UA (tagged)" checked={options.pdf_ua ?? false} onChange={(pdf_ua) => set({ pdf_ua })} />
            </div>
            <TextField
              label="Pages"
              id="office-pages"
              hint='Such as "1-3, 5"'
              value={options.page_ranges ?? ''}
              onChange={(next) => set({ page_ranges: next || undefined })}
            />
            <PdfAField id="office-pdfa" value={options.pdf_a} onChange={(next) => set({ pdf_a: next })} />
            <SignField id="office-sign" value={options.sign} onChange={(next) => set({ sign: next })} />
            <TextField
              label="Password"
              id="office-password"
              hint="For a protected file"
              type="password"
              autoComplete="off"
              value={options.password ?? ''}
              onChange={(next) => set({ password: next || undefined })}
            />
          </div>
          <details className="options-panel">
            <summary>Header and footer</summary>
            <HeaderFooterForm
              value={options}
              onChange={setOptions}
              note={
                <>
                  HTML with <code>{'{{page}}'}</code>, <code>{'{{pages}}'}</code>, <code>{'{{section}}'}</code> (the nearest bookmark),{' '}
                  <code>{'{{title}}'}</code> (the document’s, else the file’s name), <code>{'{{date}}'}</code> and the data below, drawn on the converted pages.
                </>
              }
            />
            <div className="options-grid">
              <SelectField
                label="Fit"
                id="office-header-footer-fit"
                hint={FIT_HINTS[options.header_footer_fit ?? 'shrink']}
                value={options.header_footer_fit ?? 'shrink'}
                choices={HEADER_FOOTER_FITS}
                onChange={(fit) => set({ header_footer_fit: fit === 'shrink' ? undefined : (fit as HeaderFooterFit) })}
              />
              <TextField
                label="Box margin"
                id="office-header-footer-margin"
                hint="From the page’s edges, e.g. 1cm or 8mm 12mm"
                value={options.header_footer_margin ?? ''}
                placeholder="1cm"
                onChange={(next) => set({ header_footer_margin: next || undefined })}
              />
              <div className="field wide">
                <span className="field-label">Data (JSON)</span>
                <SampleDataEditor value={dataText} onChange={setDataText} label="Data (JSON)" invalid={!data.ok} errorId="office-data-error" />
                {data.ok ? (
                  <span className="hint">
                    Values for the placeholders, such as <code>{'{"customer": {"name": "ACME"}}'}</code> for <code>{'{{customer.name}}'}</code>
                  </span>
                ) : (
                  <span id="office-data-error" className="error-text small" role="alert">
                    {data.error}
                  </span>
                )}
              </div>
            </div>
          </details>
          <details className="options-panel">
            <summary>Attachments and e-invoice</summary>
            <div className="options-grid">
              <AttachmentsForm value={options} onChange={setOptions} idPrefix="office" />
            </div>
          </details>
        </form>
        <div className="playground-result">
          <PdfResultCard
            result={result}
            downloadName={pdfName(file?.name ?? 'document')}
            error={error}
            rules={rules}
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

function pdfName(filename: string): string {
  return `${filename.replace(/\.[^.]+$/, '')}.pdf`;
}
