// The visual check of one template version, drawn in the admin window: the server's verdict
// (POST /admin/v1/templates/{id}/check), then per page the reference rendering, today's
// rendering and today's page with the pixels that differ painted red, all drawn with pdf.js.

import { useEffect, useRef, useState } from 'react';
import { checkTemplate, getVersion, listAssets, previewTemplate, versionReference } from '../../api/templates.ts';
import { describeFailure } from '../../api/client.ts';
import type { CheckResult } from '../../api/types.ts';
import { loadPdfJs } from '../../components/PdfPreview.tsx';
import { ErrorNote, Spinner } from '../../components/Page.tsx';
import { formatNumber } from '../../lib/format.ts';

/** Same tolerance as the server (services/pdf-tools/pdf-pixels.ts): antialiasing noise is not a change. */
const CHANNEL_TOLERANCE = 24;
const MAX_PAGES = 10;

export function VisualCheck({ templateId, version }: { templateId: string; version: number }) {
  const [result, setResult] = useState<CheckResult>();
  const [error, setError] = useState<string>();
  /** Assets replaced or added since the version was saved: they are not versioned, so the check renders the version with them. */
  const [newerAssets, setNewerAssets] = useState<string[]>([]);
  const pagesRef = useRef<HTMLElement>(null);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      const verdict = await checkTemplate(templateId, version);
      if (cancelled) return;
      setResult(verdict);
      const [stored, assets] = await Promise.all([getVersion(templateId, version), listAssets(templateId)]);
      if (cancelled) return;
      const saved = Date.parse(stored.created_at);
      setNewerAssets(assets.data.filter((asset) => Date.parse(asset.updated_at) > saved).map((asset) => asset.name));
      const [reference, today] = await Promise.all([
        versionReference(templateId, version),
        previewTemplate({ html: stored.html, data: stored.sample_data ?? {}, template_id: templateId, options: { wait_until: 'load' } }),
      ]);
      if (!cancelled && pagesRef.current) await drawComparison(pagesRef.current, reference.bytes, today.bytes, () => cancelled);
    })().catch((failure: unknown) => !cancelled && setError(describeFailure(failure)));
    return () => {
      cancelled = true;
    };
  }, [templateId, version]);

  return (
    <div className="visual-check">
      <p role="status" data-testid="check-verdict" className={result?.verdict === 'changed' ? 'check-verdict changed' : 'check-verdict'}>
        {!result && !error && (
          <>
            <Spinner /> Rendering version {version} again and comparing…
          </>
        )}
        {result && verdictText(result)}
      </p>
      {newerAssets.length > 0 && (
        <p className="note small" data-testid="check-assets-note">
          {newerAssets.length === 1 ? `The asset ${newerAssets[0]} was` : `The assets ${newerAssets.join(', ')} were`} changed after version {version} was
          saved. Assets are not versioned: this check renders version {version} with today’s assets
          {result?.verdict === 'changed' ? ', so the change may come from them rather than from the template.' : '.'}
        </p>
      )}
      {error && <ErrorNote>{error}</ErrorNote>}
      <section ref={pagesRef} className="check-pages" aria-label="Pages compared" />
    </div>
  );
}

function verdictText(result: CheckResult): string {
  if (result.verdict === 'reference_created')
    return `Version ${result.template_version} had no reference yet: one was made now (${result.pages} pages). Check again after an upgrade.`;
  if (result.verdict === 'unchanged')
    return `No change: ${result.pages === 1 ? 'the page looks as it' : `all ${result.pages} pages look as they`} did when version ${result.template_version} was saved.`;
  const pages = result.changed_pages.join(', ');
  return `Changed on page${result.changed_pages.length > 1 ? 's' : ''} ${pages} of ${result.pages} (up to ${(result.max_diff_ratio * 100).toFixed(2)} % of a page’s pixels).`;
}

async function drawComparison(container: HTMLElement, reference: Uint8Array, today: Uint8Array, cancelled: () => boolean): Promise<void> {
  const [before, after] = await Promise.all([drawPages(reference), drawPages(today)]);
  if (cancelled()) return;
  container.replaceChildren();
  for (let at = 0; at < Math.min(Math.max(before.length, after.length), MAX_PAGES); at++) {
    const row = document.createElement('figure');
    row.className = 'check-page';
    row.dataset.page = String(at + 1);
    const highlighted = highlight(before[at], after[at]);
    row.dataset.changed = String(highlighted.changed);
    const caption = document.createElement('figcaption');
    caption.textContent = `Page ${at + 1}: ${highlighted.changed ? `${formatNumber(highlighted.count)} pixels differ` : 'same'}`;
    row.append(caption, labelled('Reference', before[at]), labelled('Today', after[at]), labelled('Differences', highlighted.canvas));
    container.append(row);
  }
}

function labelled(title: string, canvas: HTMLCanvasElement | undefined): HTMLElement {
  const cell = document.createElement('div');
  cell.className = 'check-cell';
  const label = document.createElement('span');
  label.className = 'muted small';
  label.textContent = title;
  cell.append(label, canvas ?? Object.assign(document.createElement('p'), { textContent: 'no such page' }));
  return cell;
}

async function drawPages(bytes: Uint8Array): Promise<HTMLCanvasElement[]> {
  const pdfjs = await loadPdfJs();
  const pdf = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false }).promise;
  const canvases: HTMLCanvasElement[] = [];
  for (let number = 1; number <= Math.min(pdf.numPages, MAX_PAGES); number++) {
    const page = await pdf.getPage(number);
    const viewport = page.getViewport({ scale: 1 });
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(viewport.width);
    canvas.height = Math.ceil(viewport.height);
    canvas.className = 'pdf-page';
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#fff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas, viewport }).promise;
    canvases.push(canvas);
  }
  await pdf.destroy();
  return canvases;
}

/** Today's page faded, with every pixel that differs from the reference painted red. */
function highlight(
  before: HTMLCanvasElement | undefined,
  after: HTMLCanvasElement | undefined,
): { canvas: HTMLCanvasElement | undefined; changed: boolean; count: number } {
  if (!before || !after || before.width !== after.width || before.height !== after.height)
    return { canvas: after ?? before, changed: true, count: (after ?? before)!.width * (after ?? before)!.height };
  const { width, height } = after;
  const a = before.getContext('2d')!.getImageData(0, 0, width, height).data;
  const output = after.getContext('2d')!.getImageData(0, 0, width, height);
  const b = output.data;
  let count = 0;
  for (let at = 0; at < b.length; at += 4) {
    const differs =
      Math.abs(a[at]! - b[at]!) > CHANNEL_TOLERANCE ||
      Math.abs(a[at + 1]! - b[at + 1]!) > CHANNEL_TOLERANCE ||
      Math.abs(a[at + 2]! - b[at + 2]!) > CHANNEL_TOLERANCE;
    if (differs) {
      count++;
      b[at] = 230;
      b[at + 1] = 0;
      b[at + 2] = 40;
    } else {
      // Unchanged pixels fade, so the differences stand out.
      b[at] = 255 - (255 - b[at]!) / 4;
      b[at + 1] = 255 - (255 - b[at + 1]!) / 4;
      b[at + 2] = 255 - (255 - b[at + 2]!) / 4;
    }
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.className = 'pdf-page';
  canvas.getContext('2d')!.putImageData(output, 0, 0);
  return { canvas, changed: count > 0, count };
}
