// The PDF tools screen's transform: a list of steps (StepList) and presets (PresetBar), run on the
// chosen PDF by the admin route (not charged, not kept); the result's pages previewed as images
// (the images endpoint; after a split, each part's first page) and downloaded as a PDF or a zip.

import { unzipSync } from 'fflate';
import { useState } from 'react';
import { transformPdf, type TransformOutcome } from '../api/pdf-transform.ts';
import { fileToBase64, pageImages, type PdfSource } from '../api/pdf-tools.ts';
import type { KeyRecord } from '../api/types.ts';
import { formatBytes } from '../lib/format.ts';
import { useAction } from '../lib/hooks.ts';
import { fromWire, operationLabel, toWire, type StepDraft } from '../lib/pdf-steps.ts';
import { Card, ErrorNote } from './Page.tsx';
import { downloadPdf } from './PdfPreview.tsx';
import { PresetBar } from './PresetBar.tsx';
import { StepList } from './StepList.tsx';
import { Table } from './Table.tsx';

/** At most this many pages (or parts) are drawn for the preview. */
const PREVIEW_LIMIT = 12;

interface Preview {
  label: string;
  src: string;
  width: number;
  height: number;
}

export function TransformCard({
  source,
  filename,
  keys,
  steps,
  onSteps,
}: {
  source: () => Promise<PdfSource>;
  filename: string;
  keys: KeyRecord[];
  steps: StepDraft[];
  onSteps: (next: StepDraft[]) => void;
}) {
  const [outcome, setOutcome] = useState<TransformOutcome | null>(null);
  const [previews, setPreviews] = useState<Preview[]>([]);
  const wire = () => steps.map((step, at) => toWire(step, at));
  const run = useAction(async () => {
    setOutcome(null);
    setPreviews([]);
    const result = await transformPdf(await source(), wire(), filename);
    setOutcome(result);
    setPreviews(await previewsOf(result));
  });
  const zip = outcome?.contentType === 'application/zip';
  const first = outcome?.steps[0];
  const last = outcome?.steps.at(-1);
  return (
    <Card title="Steps" className="padded">
      <PresetBar keys={keys} steps={wire} onApply={(loaded) => onSteps(loaded.map(fromWire))} />
      <StepList steps={steps} onChange={onSteps} />
      <div className="toolbar">
        <button type="button" className="button primary" disabled={run.busy || steps.length === 0} onClick={() => void run.run()}>
          {run.busy ? 'Working…' : 'Run and preview'}
        </button>
        {outcome && (
          <button type="button" className="button" onClick={() => downloadPdf(outcome.bytes, outcome.filename, outcome.contentType)}>
            {zip ? 'Download zip' : 'Download PDF'}
          </button>
        )}
        {outcome && first && last && (
          <span className="muted small" data-testid="transform-facts">
            {outcome.filename}: {formatBytes(first.bytes_before)} → {formatBytes(outcome.bytes.length)}
            {zip ? `, ${last.parts ?? previews.length} parts` : `, ${last.pages} pages`}
          </span>
        )}
      </div>
      <ErrorNote>{run.error}</ErrorNote>
      {outcome && (
        <Table
          label="What each step did"
          columns={[{ label: 'Step' }, { label: 'Pages', className: 'num' }, { label: 'Size', className: 'num' }, { label: 'Time', className: 'num' }]}
        >
          {outcome.steps.map((step, at) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the steps of one run, in their order
            <tr key={at}>
              <td>
                {at + 1}. {operationLabel(step.op)}
              </td>
              <td className="num">{step.parts ? `${step.pages} in ${step.parts} parts` : step.pages}</td>
              <td className="num nowrap">
                {formatBytes(step.bytes_before)} → {formatBytes(step.bytes_after)}
              </td>
              <td className="num">{step.ms} ms</td>
            </tr>
          ))}
        </Table>
      )}
      {previews.length > 0 && (
        <div className="page-previews" data-testid="result-previews">
          {previews.map((preview) => (
            <figure key={preview.label}>
              <img src={preview.src} alt={preview.label} width={preview.width / 1.25} height={preview.height / 1.25} />
              <figcaption className="muted small">{preview.label}</figcaption>
            </figure>
          ))}
        </div>
      )}
    </Card>
  );
}

/** The result's pages as small images: a PDF's first pages, or the first page of each part of a zip. */
async function previewsOf(outcome: TransformOutcome): Promise<Preview[]> {
  const draw = async (bytes: Uint8Array, pages: string) =>
    pageImages({ pdf: await fileToBase64(new Blob([bytes as BlobPart])) }, { pages, width: 160, format: 'png' });
  if (outcome.contentType !== 'application/zip') {
    const pages = outcome.steps.at(-1)?.pages ?? 1;
    const images = await draw(outcome.bytes, `1-${Math.min(pages, PREVIEW_LIMIT)}`);
    return images.map((image) => ({
      label: `Page ${image.page}`,
      src: `data:${image.content_type};base64,${image.data}`,
      width: image.width,
      height: image.height,
    }));
  }
  const parts = Object.entries(unzipSync(outcome.bytes)).slice(0, PREVIEW_LIMIT);
  const previews: Preview[] = [];
  for (const [name, bytes] of parts) {
    const [image] = await draw(bytes, '1');
    if (image) previews.push({ label: name, src: `data:${image.content_type};base64,${image.data}`, width: image.width, height: image.height });
  }
  return previews;
}
