// The playground: HTML, Markdown or a URL, the page options, a real render with no key (POST
// /v1/playground/pdf), the PDF inline, a download, and the same call as curl.

import { useMemo, useState, type FormEvent } from 'react';
import { ApiFailure, describeFailure, failureRules } from '../api/client.ts';
import type { RuleFinding } from '../api/einvoice.ts';
import { getPlaygroundReceipt, renderPlayground, type PlaygroundRequest } from '../api/playground.ts';
import type { Receipt } from '../api/activity.ts';
import { ReceiptView } from '../components/ReceiptView.tsx';
import type { PdfOptions } from '../api/types.ts';
import { changedOptions, loadOptionSpec, optionProblems, type OptionSpec } from '../lib/pdf-options.ts';
import { useLoad } from '../lib/hooks.ts';
import { curlSnippet, fetchSnippet } from '../lib/snippets.ts';
import { plural } from '../lib/format.ts';
import { appliedSteps, type AppliedStep } from '../lib/applied-steps.ts';
import { Card, ErrorNote, PageHeader, Spinner } from '../components/Page.tsx';
import { OptionsForm } from '../components/OptionsForm.tsx';
import { failureUaReport, type UaReport } from '../lib/ua-report.ts';
import { DocumentOptionsForm } from '../components/DocumentOptionsForm.tsx';
import { HeaderFooterForm } from '../components/HeaderFooterForm.tsx';
import { UrlOptionsForm } from '../components/UrlOptionsForm.tsx';
import { PdfResultCard } from '../components/PdfResultCard.tsx';
import { CodeTabs } from '../components/CodeTabs.tsx';
import { MarkdownStyleFields } from '../components/MarkdownStyleFields.tsx';

const SAMPLE_HTML = `<!doctype html>
<html lang="en">
<head>
  <title>Hello from Quire</title>
  <style>
    body { font-family: Helvetica, Arial, sans-serif; color: #111827; }
    h1 { color: #4f46e5; }
    .box { border: 1px solid #e5e7eb; border-radius: 8px; padding: 16px; background: #f9fafb; }
  </style>
</head>
<body>
  <h1>Hello from Quire</h1>
  <p>Edit this HTML, pick the page options, and press <b>Render</b>.</p>
  <div class="box">Backgrounds, web fonts, SVG and CSS print rules all work.</div>
</body>
</html>
`;

const SAMPLE_MARKDOWN = `# Hello from Quire

Write **Markdown** here: GitHub's tables, task lists, ~~strikethrough~~, footnotes[^1] and
autolinks such as www.example.com all work.

| Plan | Documents |
|------|----------:|
| Starter | 1,000 |
| Growth | 10,000 |

- [x] headings become bookmarks with *Document options → outline*
- [ ] raw <abbr title="HyperText Markup Language">HTML</abbr> passes through

\`\`\`js
const pdf = await fetch('/v1/pdf', { method: 'POST', body: JSON.stringify({ markdown }) });
\`\`\`

[^1]: Printed with a clean default stylesheet; add your own CSS below.
`;

type Source = 'html' | 'markdown' | 'url';
const SOURCE_LABELS: Record<Source, string> = { html: 'HTML', markdown: 'Markdown', url: 'URL' };

/** The playground once the page options' defaults and bounds have come from /openapi.json. */
export function PlaygroundPage({ embedded = false }: { embedded?: boolean }) {
  const spec = useLoad(() => loadOptionSpec(), []);
  if (spec.data) return <Playground embedded={embedded} spec={spec.data} />;
  return spec.error ? <ErrorNote onRetry={spec.reload}>{spec.error}</ErrorNote> : <Spinner />;
}

function Playground({ embedded, spec: apiSpec }: { embedded: boolean; spec: OptionSpec }) {
  // Renders go to /v1/playground/pdf, whose timeout cap is lower than /v1/pdf's: the form shows that one.
  const spec = useMemo(
    () => ({
      ...apiSpec,
      defaults: { ...apiSpec.defaults, timeout_ms: Math.min(apiSpec.defaults.timeout_ms, apiSpec.playgroundTimeout.max) },
      bounds: { ...apiSpec.bounds, timeout_ms: apiSpec.playgroundTimeout },
    }),
    [apiSpec],
  );
  const [source, setSourceState] = useState<Source>('html');
  const [html, setHtml] = useState(SAMPLE_HTML);
  const [markdown, setMarkdown] = useState(SAMPLE_MARKDOWN);
  const [url, setUrl] = useState('https://example.com/');
  const [options, setOptions] = useState<PdfOptions>({ wait_until: 'load' });
  const [result, setResult] = useState<{ bytes: Uint8Array; ms: number; remaining: string | null; applied: AppliedStep[] } | null>(null);
  const [error, setError] = useState<string>();
  const [rules, setRules] = useState<RuleFinding[]>();
  const [uaReport, setUaReport] = useState<UaReport>();
  const [busy, setBusy] = useState(false);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const problems = optionProblems(options, spec);
  // A result belongs to the source that made it: switching source (or failing) takes it off the screen.
  const clearResult = () => {
    setResult(null);
    setReceipt(null);
    setError(undefined);
  };
  const setSource = (next: Source) => {
    if (next !== source) clearResult();
    setSourceState(next);
  };
  const hasProblems = Object.keys(problems).length > 0;

  const request: PlaygroundRequest = useMemo(() => {
    // Credentials for the url's origin mean nothing (and are refused) on an html render, css on anything but Markdown.
    const { http_headers: _headers, cookies: _cookies, basic_auth: _auth, user_agent: _agent, ...forDocument } = options;
    const { css: _css, css_mode: _mode, ...forOthers } = source === 'url' ? options : forDocument;
    const changed = changedOptions(source === 'markdown' ? forDocument : forOthers, spec);
    const input = source === 'html' ? { html } : source === 'markdown' ? { markdown } : { url: url.trim() };
    return { ...input, ...(Object.keys(changed).length ? { options: changed } : {}) };
  }, [source, html, markdown, url, options, spec]);

  // The playground call has no key, so it cannot sign: the signature goes only into the keyed samples.
  const unsigned: PlaygroundRequest = useMemo(() => {
    const { sign: _sign, ...rest } = request.options ?? {};
    return { ...request, options: Object.keys(rest).length ? rest : undefined };
  }, [request]);

  const render = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy || hasProblems) return;
    setBusy(true);
    setError(undefined);
    const started = performance.now();
    setReceipt(null);
    try {
      // The page always asks for a receipt, to show what the page loaded (the snippets leave it out).
      const { bytes, headers } = await renderPlayground({ ...request, options: { ...unsigned.options, receipt: true } });
      // What became of the final steps asked for (the signature among them, which the keyless call leaves out), said in the result.
      const applied = appliedSteps(request.options, headers);
      setResult({ bytes, ms: Math.round(performance.now() - started), remaining: headers.get('RateLimit-Remaining'), applied });
      const receiptPath = headers.get('X-Render-Receipt');
      if (receiptPath) void getPlaygroundReceipt(receiptPath).then(setReceipt, () => undefined);
    } catch (failure) {
      setResult(null);
      setRules(failureRules(failure));
      setUaReport(failureUaReport(failure));
      const retry = failure instanceof ApiFailure && failure.code === 'rate_limited' && failure.retryAfter ? ` (try again in ${failure.retryAfter} s)` : '';
      setError(describeFailure(failure) + (retry && !describeFailure(failure).includes('try again') ? retry : ''));
    } finally {
      setBusy(false);
    }
  };

  const origin = location.origin;
  const keyedBody = request;
  const keyless = { name: 'curl (no key)', code: curlSnippet({ origin, path: '/v1/playground/pdf', body: unsigned, keyed: false, output: 'output.pdf' }) };
  const keyed = [
    { name: 'curl (API key)', code: curlSnippet({ origin, path: '/v1/pdf', body: keyedBody, keyed: true, output: 'output.pdf' }) },
    { name: 'JavaScript', code: fetchSnippet({ origin, path: '/v1/pdf', body: keyedBody, keyed: true, output: 'output.pdf' }) },
  ];
  // A visitor of the public page has no key: the sample that works for them comes first.
  const samples = embedded ? [...keyed, keyless] : [keyless, ...keyed];

  return (
    <>
      <PageHeader
        title="Playground"
        description={
          embedded
            ? 'A real render with no key: nothing is stored or charged. The same page is public at /playground.'
            : 'Render HTML, Markdown or a web page to PDF with a real browser. Nothing is stored; a few renders a minute per visitor.'
        }
      />
      <div className="playground-grid">
        <form
          className="card playground-form"
          onSubmit={render}
          onKeyDown={(event) => {
            if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') void render();
          }}
        >
          <div className="form-top">
            <div className="segmented" role="radiogroup" aria-label="Source">
              {(['html', 'markdown', 'url'] as const).map((item) => (
                <label key={item} className={source === item ? 'segment active' : 'segment'}>
                  <input type="radio" name="source" value={item} checked={source === item} onChange={() => setSource(item)} />
                  {SOURCE_LABELS[item]}
                </label>
              ))}
            </div>
            <div className="form-actions">
              <span className="hint">Ctrl+Enter</span>
              <button type="submit" className="button primary" disabled={busy || hasProblems}>
                {busy ? (
                  <>
                    <Spinner /> Rendering…
                  </>
                ) : (
                  'Render PDF'
                )}
              </button>
            </div>
          </div>
          {source === 'html' ? (
            <div className="field grow">
              <label className="field-label" htmlFor="playground-html">
                HTML <span className="hint">up to 512 KB</span>
              </label>
              <textarea id="playground-html" className="code-input tall" spellCheck={false} value={html} onChange={(event) => setHtml(event.target.value)} />
            </div>
          ) : source === 'markdown' ? (
            <>
              <div className="field grow">
                <label className="field-label" htmlFor="playground-markdown">
                  Markdown <span className="hint">GitHub-flavoured, up to 512 KB</span>
                </label>
                <textarea
                  id="playground-markdown"
                  className="code-input tall"
                  spellCheck={false}
                  value={markdown}
                  onChange={(event) => setMarkdown(event.target.value)}
                />
              </div>
              <MarkdownStyleFields value={options} onChange={setOptions} />
            </>
          ) : (
            <div className="field">
              <label className="field-label" htmlFor="playground-url">
                Public URL
              </label>
              <input
                id="playground-url"
                className="input"
                type="url"
                value={url}
                onChange={(event) => setUrl(event.target.value)}
                placeholder="https://…"
                required
              />
              <span className="hint">Private and local addresses are refused.</span>
            </div>
          )}
          <details className="options-panel">
            <summary>Page options</summary>
            <OptionsForm value={options} onChange={setOptions} problems={problems} spec={spec} />
          </details>
          <details className="options-panel">
            <summary>Header and footer</summary>
            <HeaderFooterForm value={options} onChange={setOptions} />
          </details>
          <details className="options-panel">
            <summary>Document options</summary>
            <DocumentOptionsForm value={options} onChange={setOptions} spec={spec} signing={embedded} />
          </details>
          {source === 'url' && (
            <details className="options-panel">
              <summary>Request to the URL</summary>
              <UrlOptionsForm value={options} onChange={setOptions} />
            </details>
          )}
        </form>
        <div className="playground-result">
          <PdfResultCard
            result={result}
            moreFacts={typeof result?.remaining === 'string' ? ` · ${result.remaining} renders left this minute` : undefined}
            downloadName="playground.pdf"
            error={error}
            rules={rules}
            uaReport={uaReport}
            busy={busy}
            label="Rendered PDF"
            empty="Press Render PDF to see the result here."
          />
          {receipt && (
            <details className="card receipt-card playground-receipt">
              <summary className="card-title">
                What the page loaded: {plural(receipt.requests.length, 'request')}
                {receipt.blocked.length > 0 ? `, ${receipt.blocked.length} blocked` : ''}
                {receipt.warnings.length > 0 ? `, ${plural(receipt.warnings.length, 'warning')}` : ''}
              </summary>
              <ReceiptView receipt={receipt} />
            </details>
          )}
        </div>
      </div>
      <Card title="The same call from code" className="snippet-card">
        <CodeTabs label="Equivalent request" samples={samples} />
      </Card>
    </>
  );
}
