// The PDF tools on one stored document of the documents screen: Inspect (shown in a dialog) and
// Tools (a dialog to split, compress or draw it as images, downloaded at once; with a link to the
// PDF tools screen, where more steps and a preview wait with this document and step chosen).
// Two buttons, so the row keeps fitting its card at 1024 px.

import { useState } from 'react';
import { transformPdf } from '../api/pdf-transform.ts';
import { DPI_BOUNDS, IMAGE_FORMATS, imagesZip, inspectDocument, type PdfInspection } from '../api/pdf-tools.ts';
import { formatBytes } from '../lib/format.ts';
import { useAction } from '../lib/hooks.ts';
import { newStep, toWire, type StepDraft } from '../lib/pdf-steps.ts';
import { Dialog } from './Dialog.tsx';
import { InspectionView } from './InspectionView.tsx';
import { Link } from './Link.tsx';
import { Field, NumberField } from './Fields.tsx';
import { ErrorNote, Loading } from './Page.tsx';
import { downloadPdf } from './PdfPreview.tsx';
import { Select } from './Select.tsx';
import { StepFields } from './StepFields.tsx';

// duplicates: choice lists of a Select, alike in shape to StepFields' (other choices, other fields).
type Tool = 'split' | 'compress' | 'images';
const TOOLS: { tool: Tool; label: string }[] = [
  { tool: 'split', label: 'Split' },
  { tool: 'compress', label: 'Compress' },
  { tool: 'images', label: 'Images' },
];

export function DocumentToolActions({ id, name }: { id: string; name: string }) {
  const [inspecting, setInspecting] = useState<{ inspection?: PdfInspection; error?: string } | null>(null);
  const [tools, setTools] = useState(false);
  const [tool, setTool] = useState<Tool>('split');
  const [steps, setSteps] = useState<Record<'split' | 'compress', StepDraft>>(() => ({ split: newStep('split'), compress: newStep('compress') }));
  const [format, setFormat] = useState<'png' | 'jpeg' | 'webp'>('png');
  const [dpi, setDpi] = useState(150);
  const [done, setDone] = useState('');
  const filename = name.toLowerCase().endsWith('.pdf') ? name : `${id}.pdf`;
  const download = useAction(async () => {
    setDone('');
    if (tool === 'images') {
      const { bytes, filename: zipName } = await imagesZip({ document_id: id }, { format, dpi });
      downloadPdf(bytes, zipName, 'application/zip');
      return;
    }
    const outcome = await transformPdf({ document_id: id }, [toWire(steps[tool], 0)], filename);
    downloadPdf(outcome.bytes, outcome.filename, outcome.contentType);
    const report = outcome.steps[0];
    if (report)
      setDone(
        `${outcome.filename}: ${formatBytes(report.bytes_before)} → ${formatBytes(outcome.bytes.length)}${report.parts ? `, ${report.parts} parts` : ''}`,
      );
  });
  // Another tool starts clean: the split's "3 parts" stayed on screen under Images.
  const choose = (next: Tool) => {
    setTool(next);
    setDone('');
    download.setError(undefined);
  };
  const inspect = async () => {
    setInspecting({});
    // A dialog closed while the inspection was on its way stays closed (it used to open again on the answer).
    const settle = (next: { inspection?: PdfInspection; error?: string }) => setInspecting((open) => (open === null ? null : next));
    try {
      settle({ inspection: await inspectDocument(id) });
    } catch (failure) {
      settle({ error: (failure as Error).message });
    }
  };
  const footer = (
    <>
      {tool !== 'images' && (
        <Link className="button ghost" href={`/admin/pdf-tools?document=${encodeURIComponent(id)}&op=${tool}`}>
          More steps and a preview
        </Link>
      )}
      <button type="button" className="button primary" disabled={download.busy} onClick={() => void download.run()} data-autofocus>
        {download.busy ? 'Working…' : tool === 'compress' ? 'Download PDF' : 'Download zip'}
      </button>
    </>
  );
  return (
    <>
      <button type="button" className="button ghost small" onClick={() => void inspect()}>
        Inspect
      </button>
      <button type="button" className="button ghost small" onClick={() => setTools(true)} title="Split, compress, images">
        Tools
      </button>
      <Dialog open={inspecting !== null} wide title={`Inside ${name}`} onClose={() => setInspecting(null)}>
        {/* A read that still fails after the API client's retries (a busy server) can be asked again here. */}
        <ErrorNote onRetry={() => void inspect()}>{inspecting?.error}</ErrorNote>
        {inspecting && !inspecting.error && !inspecting.inspection && <Loading label="Reading the PDF…" />}
        {inspecting?.inspection && <InspectionView inspection={inspecting.inspection} />}
      </Dialog>
      <Dialog open={tools} title={`Tools for ${name}`} onClose={() => setTools(false)} footer={footer}>
        <div className="segmented" role="radiogroup" aria-label="Tool">
          {TOOLS.map((item) => (
            <label key={item.tool} className={tool === item.tool ? 'segment active' : 'segment'}>
              <input type="radio" name={`tool-${id}`} value={item.tool} checked={tool === item.tool} onChange={() => choose(item.tool)} />
              {item.label}
            </label>
          ))}
        </div>
        <div className="form-grid">
          {tool === 'images' ? (
            <>
              <Field label="Format" id={`images-${id}-format`}>
                <Select id={`images-${id}-format`} value={format} choices={IMAGE_FORMATS} onChange={(value) => setFormat(value as typeof format)} />
              </Field>
              <NumberField
                label="Resolution (dpi)"
                id={`images-${id}-dpi`}
                bounds={DPI_BOUNDS}
                value={dpi}
                placeholder={150}
                onChange={(value) => setDpi(value ?? 150)}
              />
            </>
          ) : (
            <StepFields step={steps[tool]} onChange={(step) => setSteps((current) => ({ ...current, [tool]: step }))} />
          )}
        </div>
        {done && (
          <p className="muted small" data-testid="tool-done">
            {done}
          </p>
        )}
        <ErrorNote>{download.error}</ErrorNote>
      </Dialog>
    </>
  );
}
