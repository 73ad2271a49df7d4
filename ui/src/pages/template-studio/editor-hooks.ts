// The template editor's behaviour beside its layout: the live preview (debounced, the latest edit
// wins), the question before leaving with unsaved edits, and Ctrl/Cmd+S.

import { useCallback, useEffect, useRef, useState } from 'react';
import { previewTemplate } from '../../api/templates.ts';
import { describeFailure, failureRules } from '../../api/client.ts';
import type { RuleFinding } from '../../api/einvoice.ts';
import type { PdfOptions, TemplateFormat } from '../../api/types.ts';
import { addLeaveGuard } from '../../lib/router.ts';
import { describeUaHeader, failureUaReport, type UaReport } from '../../lib/ua-report.ts';

const PREVIEW_DELAY_MS = 350;

export interface PreviewState {
  bytes: Uint8Array | null;
  busy: boolean;
  error?: string;
  /** The rules a refused e-invoice broke (400 einvoice_invalid). */
  rules?: RuleFinding[];
  /** The e-invoice's rule line (X-E-Invoice-Report), when the preview made one. */
  report?: string;
  /** The PDF/UA verdict (X-PDF-UA, said as a sentence), when the preview was made with pdf_ua. */
  ua?: string;
  /** The conditions a refused PDF/UA preview failed, and what needs a person (422 accessibility_failed). */
  uaReport?: UaReport;
  ms?: number;
}

/** Renders the text with data a moment after the last change; an older render still running is cancelled. */
export function useLivePreview(
  templateId: string,
  html: string,
  format: TemplateFormat,
  data: Record<string, unknown> | null | undefined,
  assetsChanged: number,
  options: PdfOptions | undefined,
): PreviewState {
  const [state, setState] = useState<PreviewState>({ bytes: null, busy: false });
  const latest = useRef<AbortController | null>(null);
  const dataKey = data === undefined ? undefined : JSON.stringify(data);
  const optionsKey = JSON.stringify(options ?? {});
  const run = useCallback(
    (source: string, values: Record<string, unknown> | null, renderOptions: PdfOptions) => {
      latest.current?.abort();
      const controller = new AbortController();
      latest.current = controller;
      const started = performance.now();
      setState((previous) => ({ ...previous, busy: true }));
      // Named by id, so the preview is served the template's assets as its renders are.
      previewTemplate({ html: source, format, data: values ?? {}, template_id: templateId, options: renderOptions }, controller.signal).then(
        ({ bytes, headers }) => {
          if (latest.current !== controller) return;
          const report = headers.get('X-E-Invoice-Report') ?? undefined;
          const ua = describeUaHeader(headers.get('X-PDF-UA')) ?? undefined;
          setState({ bytes, busy: false, ms: Math.round(performance.now() - started), report, ua });
        },
        (failure: unknown) => {
          if (latest.current !== controller || (failure as Error).name === 'AbortError') return;
          setState((previous) => ({
            ...previous,
            busy: false,
            error: describeFailure(failure),
            rules: failureRules(failure),
            uaReport: failureUaReport(failure),
          }));
        },
      );
    },
    [templateId, format],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: assetsChanged is a trigger: a changed asset re-renders the preview with the same text
  useEffect(() => {
    // Invalid JSON keeps the last good preview; the data pane says what is wrong.
    if (dataKey === undefined) return;
    const timer = setTimeout(() => run(html, JSON.parse(dataKey) as Record<string, unknown> | null, JSON.parse(optionsKey) as PdfOptions), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [html, dataKey, optionsKey, run, assetsChanged]);
  useEffect(() => () => latest.current?.abort(), []);
  return state;
}

/** Leaving with unsaved edits asks first: closing the tab or reloading (the browser asks), a link, the sidebar or Back (we ask). */
export function useLeaveWarning(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    const removeGuard = addLeaveGuard(() => window.confirm(LEAVE_QUESTION));
    return () => {
      window.removeEventListener('beforeunload', warn);
      removeGuard();
    };
  }, [dirty]);
}

const LEAVE_QUESTION = 'This template has unsaved changes. Leave and lose them?';

/** Ctrl/Cmd+S saves, as in any editor. */
export function useSaveShortcut(save: () => unknown): void {
  const saveRef = useRef(save);
  saveRef.current = save;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void saveRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
