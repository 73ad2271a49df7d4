// The template editor: HTML or Markdown in a code editor (placeholders highlighted, data paths completed,
// marks for syntax errors and placeholders the sample data lacks) on one side; sample data
// (JSON, marked where it breaks) and a live PDF preview on the other, refreshed as you type
// (debounced; the latest edit wins). Save (also Ctrl/Cmd+S), rename, delete, the template's
// assets and versions (view, diff, restore, visual check), and a call that renders it by id.

import { useEffect, useMemo, useRef, useState } from 'react';
import type { EditorView } from '@codemirror/view';
import { forceLinting } from '@codemirror/lint';
import { deleteTemplate, exportTemplate, getTemplate, updateTemplate } from '../api/templates.ts';
import { listKeys } from '../api/keys.ts';
import type { KeyRecord, PdfOptions, Template, TemplateFormat } from '../api/types.ts';
import { useAction, useLoad } from '../lib/hooks.ts';
import { navigate } from '../lib/router.ts';
import { curlSnippet, fetchSnippet } from '../lib/snippets.ts';
import { Card, ErrorNote, Loading } from '../components/Page.tsx';
import { Link } from '../components/Link.tsx';
import { downloadPdf } from '../components/PdfPreview.tsx';
import { CodeTabs } from '../components/CodeTabs.tsx';
import { ConfirmDialog } from '../components/Dialog.tsx';
import { keyName } from '../components/KeySelect.tsx';
import { CodeEditor } from '../components/CodeEditor.tsx';
import { Select } from '../components/Select.tsx';
import { parseSampleData } from '../lib/template-lint.ts';
import { templateExtensions } from '../lib/template-editing.ts';
import { AssetsPanel } from './template-studio/AssetsPanel.tsx';
import { VersionsPanel } from './template-studio/VersionsPanel.tsx';
import { givenRenderOptions, RenderOptionsPanel } from './template-studio/RenderOptionsPanel.tsx';
import { useLeaveWarning, useLivePreview, useSaveShortcut } from './template-studio/editor-hooks.ts';
import { EditorToolbar } from './template-studio/EditorToolbar.tsx';
import { PreviewPane } from './template-studio/PreviewPane.tsx';
import { SampleDataPane } from './template-studio/SampleDataPane.tsx';
import { WordTemplateEditor } from './template-studio/WordTemplateEditor.tsx';

const FORMAT_LABELS: Record<TemplateFormat, string> = { html: 'HTML', markdown: 'Markdown', docx: 'Word' };

export function TemplateEditorPage({ id }: { id: string }) {
  const loaded = useLoad((signal) => getTemplate(id, signal), [id]);
  const keys = useLoad((signal) => listKeys(signal), []);
  if (loaded.error) {
    return (
      <>
        <BackLink />
        <ErrorNote onRetry={loaded.reload}>{loaded.error}</ErrorNote>
      </>
    );
  }
  if (!loaded.data) return <Loading label="Opening the template…" />;
  if (loaded.data.format === 'docx') return <WordTemplateEditor template={loaded.data} keys={keys.data} ownerName={keyName(keys.data, loaded.data.key_id)} />;
  return <Editor template={loaded.data} keys={keys.data} ownerName={keyName(keys.data, loaded.data.key_id)} />;
}

function BackLink() {
  return (
    <Link className="back-link" href="/admin/templates">
      ← Templates
    </Link>
  );
}

function Editor({ template, keys, ownerName }: { template: Template; keys: KeyRecord[] | undefined; ownerName: string }) {
  const [saved, setSaved] = useState(template);
  const [name, setName] = useState(template.name);
  const [html, setHtml] = useState(template.html ?? '');
  // This editor is for text templates (a Word template opens WordTemplateEditor).
  const [format, setFormat] = useState<'html' | 'markdown'>(template.format === 'markdown' ? 'markdown' : 'html');
  const [dataText, setDataText] = useState(() => (template.sample_data ? JSON.stringify(template.sample_data, null, 2) : ''));
  const data = useMemo(() => parseSampleData(dataText), [dataText]);
  const [savedNote, setSavedNote] = useState<string>();
  const [deleting, setDeleting] = useState(false);

  const savedDataText = saved.sample_data ? JSON.stringify(saved.sample_data) : '';
  const dirty =
    name !== saved.name ||
    html !== saved.html ||
    format !== saved.format ||
    (data.ok ? JSON.stringify(data.value ?? '') !== JSON.stringify(saved.sample_data ?? '') : dataText !== savedDataText);

  const [assetsChanged, setAssetsChanged] = useState(0);
  // Render options (header and footer, PDF/A, attachments, e-invoice) are not part of the saved template: tried here, sent with each render.
  const [running, setRunning] = useState<PdfOptions>({});
  const runningOptions = useMemo(() => givenRenderOptions(running), [running]);
  const preview = useLivePreview(template.template_id, html, format, data.ok ? data.value : undefined, assetsChanged, runningOptions);

  // The HTML editor's completion and marks read the latest valid sample data; a change re-runs the marks.
  const sample = useRef<Record<string, unknown> | null>(null);
  if (data.ok) sample.current = data.value;
  const htmlView = useRef<EditorView | null>(null);
  const htmlExtensions = useMemo(() => templateExtensions(() => sample.current), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: data is the trigger: the marks read it through sample.current and must re-run when it changes
  useEffect(() => {
    if (htmlView.current) forceLinting(htmlView.current);
  }, [data]);

  const save = useAction(async () => {
    if (!data.ok) throw new Error('Fix the sample data first: it must be a JSON object.');
    const updated = await updateTemplate(template.template_id, { name: name.trim() || saved.name, html, format, sample_data: data.value });
    setSaved(updated);
    setName(updated.name);
    setSavedNote('Saved');
    setTimeout(() => setSavedNote(undefined), 2000);
  });
  const restored = (updated: Template) => {
    setSaved(updated);
    setName(updated.name);
    setHtml(updated.html ?? '');
    setFormat(updated.format === 'markdown' ? 'markdown' : 'html');
    setDataText(updated.sample_data ? JSON.stringify(updated.sample_data, null, 2) : '');
  };
  const exporting = useAction(async () => {
    const { bytes, filename } = await exportTemplate(template.template_id);
    downloadPdf(bytes, filename, 'application/gzip');
  });
  const remove = useAction(async () => {
    await deleteTemplate(template.template_id);
    navigate('/admin/templates', { force: true });
  });

  useLeaveWarning(dirty);
  useSaveShortcut(save.run);

  // The preview has no key to sign with: the signature (by the template's key) is in the samples only.
  const sampleOptions = running.sign ? { ...runningOptions, sign: running.sign } : runningOptions;
  const body = { template_id: template.template_id, data: data.ok ? (data.value ?? {}) : {}, ...(sampleOptions ? { options: sampleOptions } : {}) };
  const snippetInput = { origin: location.origin, path: '/v1/pdf', body, keyed: true, output: 'document.pdf' };

  return (
    <div className="editor-page">
      <BackLink />
      <EditorToolbar
        name={name}
        onName={setName}
        templateId={template.template_id}
        ownerName={ownerName}
        savedAt={saved.updated_at}
        saveState={savedNote ?? (dirty ? 'Unsaved changes' : '')}
        saving={save.busy}
        canSave={dirty}
        exporting={exporting.busy}
        onSave={() => void save.run()}
        onExport={() => void exporting.run()}
        onDelete={() => setDeleting(true)}
      />
      <ErrorNote>{save.error ?? exporting.error}</ErrorNote>
      <div className="editor-grid">
        <section className="editor-pane" aria-label={FORMAT_LABELS[format]}>
          <div className="pane-head">
            <span id="template-html-label">
              <Select
                small
                label="Template format"
                value={format}
                choices={(['html', 'markdown'] as const).map((item) => ({ value: item, label: FORMAT_LABELS[item] }))}
                onChange={(next) => setFormat(next as 'html' | 'markdown')}
              />
            </span>
            <span className="muted small">
              <code>{'{{path}}'}</code> escaped · <code>{'{{{path}}}'}</code> raw · <code>{'{{#list}}…{{/list}}'}</code>
            </span>
          </div>
          <CodeEditor
            key={format}
            value={html}
            onChange={setHtml}
            language={format}
            label={FORMAT_LABELS[format]}
            extensions={htmlExtensions}
            onView={(view) => (htmlView.current = view)}
          />
        </section>
        <div className="editor-side">
          <SampleDataPane text={dataText} onText={setDataText} data={data}>
            <span className={data.ok ? 'valid-note' : 'invalid-note'} role="status" data-testid="data-status">
              {data.ok ? 'Valid JSON' : 'Invalid'}
            </span>
          </SampleDataPane>
          <PreviewPane preview={preview} />
        </div>
      </div>
      <RenderOptionsPanel value={running} onChange={setRunning} keyId={template.key_id} />
      <div className="studio-grid">
        <AssetsPanel templateId={template.template_id} onChange={() => setAssetsChanged((count) => count + 1)} />
        <VersionsPanel templateId={template.template_id} reloadKey={saved.updated_at} keys={keys} onRestored={restored} />
      </div>
      <Card title="Render it by id" className="snippet-card">
        <p className="muted small">
          Send the key that owns this template ({ownerName}) as <code>QUIRE_API_KEY</code>; the data here is the sample data.
        </p>
        <CodeTabs
          label="Render this template"
          samples={[
            { name: 'curl', code: curlSnippet(snippetInput) },
            { name: 'JavaScript', code: fetchSnippet(snippetInput) },
          ]}
        />
      </Card>
      {/* duplicates: alike in shape only to NumberField’s input in Fields.tsx (a list of unrelated props). */}
      <ConfirmDialog
        open={deleting}
        title="Delete this template?"
        confirmLabel="Delete template"
        busy={remove.busy}
        error={remove.error}
        onClose={() => setDeleting(false)}
        onConfirm={() => void remove.run()}
      >
        {`“${saved.name}” is deleted for good; renders that name ${template.template_id} get 404 template_not_found.`}
      </ConfirmDialog>
    </div>
  );
}
