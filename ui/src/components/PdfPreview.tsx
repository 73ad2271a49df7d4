// Shows PDF bytes as pages drawn by pdf.js (loaded on first use), so the preview looks the same in
// every browser and in the desktop window. A newer document replaces an older one still drawing.

import { useEffect, useRef, useState } from 'react';

type PdfJs = typeof import('pdfjs-dist');
let pdfjsLoading: Promise<PdfJs> | undefined;

/** pdf.js with its worker, loaded once on first use. */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjsLoading ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(([pdfjs, worker]) => {
    pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
    return pdfjs;
  });
  return pdfjsLoading;
}

/** Pages drawn at most; a longer document says how many more there are. */
const MAX_PAGES = 20;

export interface PdfPreviewProps {
  bytes: Uint8Array | null;
  /** What the document is, for screen readers and the empty state. */
  label: string;
  empty?: string;
  busy?: boolean;
}

export function PdfPreview({ bytes, label, empty = 'Nothing to show yet.', busy = false }: PdfPreviewProps) {
  const pagesRef = useRef<HTMLDivElement>(null);
  const [info, setInfo] = useState<{ pages: number; text: string; version: number }>({ pages: 0, text: '', version: 0 });
  const [error, setError] = useState<string>();

  useEffect(() => {
    const container = pagesRef.current;
    if (!container) return;
    // No bytes (a result cleared by an error or a new source): the pages drawn before go too, not only
    // out of sight, so no earlier page shows under the empty state (issue 39, item 12).
    if (!bytes) {
      container.replaceChildren();
      setError(undefined);
      return;
    }
    let cancelled = false;
    let destroy: (() => void) | undefined;
    (async () => {
      const pdfjs = await loadPdfJs();
      // pdf.js takes ownership of the buffer it is given: hand it a copy.
      const task = pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false });
      destroy = () => void task.destroy();
      const pdf = await task.promise;
      if (cancelled) return;
      const width = Math.max(200, container.clientWidth - 32);
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      const canvases: HTMLCanvasElement[] = [];
      let text = '';
      for (let number = 1; number <= Math.min(pdf.numPages, MAX_PAGES); number++) {
        const page = await pdf.getPage(number);
        const base = page.getViewport({ scale: 1 });
        const viewport = page.getViewport({ scale: (width / base.width) * ratio });
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
        canvas.className = 'pdf-page';
        await page.render({ canvas, viewport }).promise;
        if (number <= 3) {
          const content = await page.getTextContent();
          text += `${content.items.map((item) => ('str' in item ? item.str : '')).join(' ')}\n`;
        }
        if (cancelled) return;
        canvases.push(canvas);
      }
      container.replaceChildren(...canvases);
      setInfo((previous) => ({ pages: pdf.numPages, text: text.replace(/\s+/g, ' ').trim(), version: previous.version + 1 }));
      setError(undefined);
    })().catch((failure: unknown) => {
      if (!cancelled) setError(`The PDF could not be shown: ${(failure as Error).message}`);
    });
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [bytes]);

  return (
    // The keyboard can reach it, so its pages scroll with the arrow keys (axe: scrollable-region-focusable).
    // No role or name of its own: the pages inside are the image named by `label`, and a second
    // region named like it made getByRole('region', { name: 'Preview' }) ambiguous.
    <div
      className={`pdf-preview${busy ? ' busy' : ''}`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling area must take the focus to be scrolled without a mouse (WCAG 2.1.1)
      tabIndex={0}
      data-testid="pdf-preview"
      data-version={info.version}
      data-pages={bytes ? info.pages : 0}
      aria-busy={busy}
    >
      {!bytes && <div className="pdf-empty">{empty}</div>}
      {error && <div className="pdf-empty error-text">{error}</div>}
      <div
        ref={pagesRef}
        className="pdf-pages"
        role="img"
        aria-label={bytes ? `${label}: ${info.pages} page${info.pages === 1 ? '' : 's'}` : label}
        hidden={!bytes}
      />
      {bytes && info.pages > MAX_PAGES && (
        <p className="muted center">
          Showing the first {MAX_PAGES} of {info.pages} pages; download the PDF for the rest.
        </p>
      )}
      {/* Nothing of an earlier PDF is left once the bytes are taken away (a playground result cleared). */}
      <div className="sr-only" data-testid="pdf-text">
        {bytes ? info.text : ''}
      </div>
    </div>
  );
}

/** Saves bytes as a file through a temporary blob URL. */
export function downloadPdf(bytes: Uint8Array, filename: string, type = 'application/pdf'): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
