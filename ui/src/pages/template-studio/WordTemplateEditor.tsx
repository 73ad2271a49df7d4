// The studio for a Word (docx) template: upload a new version of the file (saved at once, so a
// new version), the placeholders the server found in it, the sample data edited as JSON and linted
// live against them (placeholders it lacks, data no tag uses: the server's own lint), a live PDF
// preview through LibreOffice, and the versions with their visual check.

import { useMemo, useState } from 'react';
import { updateTemplate } from '../../api/templates.ts';
import type { KeyRecord, Template, WordPlaceholder } from '../../api/types.ts';
import { lintWordData } from '../../../../server/src/services/word/data-lint.ts';
import { useAction } from '../../lib/hooks.ts';
import { readBase64 } from '../../lib/read-file.ts';
import { parseSampleData } from '../../lib/template-lint.ts';
import { Card, ErrorNote } from '../../components/Page.tsx';
import { useLivePreview } from './editor-hooks.ts';
import { PreviewPane } from './PreviewPane.tsx';
import { SampleDataPane } from './SampleDataPane.tsx';
import { VersionsPanel } from './VersionsPanel.tsx';

export function WordTemplateEditor({ template, keys, ownerName }: { template: Template; keys: KeyRecord[] | undefined; ownerName: string }) {
  const [saved, setSaved] = useState(template);
  const [dataText, setDataText] = useState(() => (template.sample_data ? JSON.stringify(template.sample_data, null, 2) : ''));
  const data = useMemo(() => parseSampleData(dataText), [dataText]);
  const [note, setNote] = useState<string>();
  const placeholders = saved.placeholders ?? [];
  const lint = useMemo(() => (data.ok ? lintWordData(placeholders, data.value ?? {}) : undefined), [data, placeholders]);
  const preview = useLivePreview(template.template_id, saved.file ?? '', 'docx', data.ok ? data.value : undefined, 0, undefined);
  const dirty = data.ok && JSON.stringify(data.value ?? null) !== JSON.stringify(saved.sample_data ?? null);

  const put = async (file: string, what: string) => {
    if (!data.ok) throw new Error('Fix the sample data first: it must be a JSON object.');
    setSaved(await updateTemplate(template.template_id, { name: saved.name, format: 'docx', file, sample_data: data.value }));
    setNote(what);
  };
  const upload = useAction(async (file: File) => put(await readBase64(file), `Version uploaded: ${file.name}`));
  const save = useAction(async () => put(saved.file ?? '', 'Sample data saved'));

  return (
    <div className="editor-page">
      <h1>{saved.name}</h1>
      <p className="muted small">
        Word template <code>{template.template_id}</code> of {ownerName}. Tags: <code>{'{name}'}</code> · <code>{'{#list}…{/list}'}</code> in a table row ·{' '}
        <code>{'{#flag}…{/flag}'}</code> · an image from a data URL.
      </p>
      <div className="editor-grid">
        <section className="editor-pane" aria-label="Word file">
          <label className="button">
            Upload a new version (.docx)
            <input
              type="file"
              accept=".docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
              data-testid="word-upload"
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) void upload.run(file);
                event.target.value = '';
              }}
            />
          </label>
          <span role="status" className="muted small">
            {upload.busy ? 'Uploading…' : note}
          </span>
          <ErrorNote>{upload.error ?? save.error}</ErrorNote>
          <h2>Placeholders found</h2>
          <PlaceholderTree nodes={placeholders} />
          <h2>Sample data check</h2>
          <ul aria-label="Sample data check" data-testid="word-lint">
            {lint?.missing.map((path) => (
              <li key={`m-${path}`}>Missing: {path}</li>
            ))}
            {lint?.unused.map((path) => (
              <li key={`u-${path}`}>Unused: {path}</li>
            ))}
            {lint && lint.missing.length + lint.unused.length === 0 && <li>Every placeholder has data and every value is used.</li>}
          </ul>
        </section>
        <div className="editor-side">
          <SampleDataPane text={dataText} onText={setDataText} data={data}>
            <button type="button" disabled={!dirty || save.busy} onClick={() => void save.run()}>
              Save sample data
            </button>
          </SampleDataPane>
          <PreviewPane preview={preview} />
        </div>
      </div>
      <div className="studio-grid">
        <VersionsPanel templateId={template.template_id} reloadKey={saved.updated_at} keys={keys} onRestored={setSaved} />
      </div>
    </div>
  );
}

function PlaceholderTree({ nodes }: { nodes: WordPlaceholder[] }) {
  if (nodes.length === 0) return <p className="muted small">No tags in this file.</p>;
  return (
    <Card title="Tags">
      <ul data-testid="word-placeholders">{nodes.map(renderNode)}</ul>
    </Card>
  );
}

function renderNode(node: WordPlaceholder) {
  return (
    <li key={`${node.kind}-${node.name}`}>
      <code>{node.kind === 'section' ? `{#${node.name}}` : `{${node.name}}`}</code>
      {node.children && node.children.length > 0 && <ul>{node.children.map(renderNode)}</ul>}
    </li>
  );
}
