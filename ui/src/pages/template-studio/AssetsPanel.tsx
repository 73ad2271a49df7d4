// A template's assets in the editor: upload images, fonts and stylesheets, see the relative name
// to write in the HTML, delete. Uploads go straight to the server (PUT with the file's own type).

import { useRef, useState } from 'react';
import { deleteAsset, listAssets, uploadAsset } from '../../api/templates.ts';
import { useAction, useLoad } from '../../lib/hooks.ts';
import { formatBytes } from '../../lib/format.ts';
import { FilePicker } from '../../components/FilePicker.tsx';
import { Card, ErrorNote, Loading } from '../../components/Page.tsx';

export function AssetsPanel({ templateId, onChange }: { templateId: string; onChange: () => void }) {
  const assets = useLoad((signal) => listAssets(templateId, signal), [templateId]);
  const [folder, setFolder] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const upload = useAction(async (files: FileList) => {
    const prefix = folder.trim().replace(/^\/+|\/+$/g, '');
    for (const file of Array.from(files)) await uploadAsset(templateId, prefix ? `${prefix}/${file.name}` : file.name, file);
    if (input.current) input.current.value = '';
    assets.reload();
    onChange();
  });
  const remove = useAction(async (name: string) => {
    await deleteAsset(templateId, name);
    assets.reload();
    onChange();
  });

  return (
    <Card title="Assets" className="assets-card">
      <p className="muted small">
        Images, fonts and stylesheets for this template, named from the HTML by relative path: <code>{'<img src="logo.png">'}</code>,{' '}
        <code>url(fonts/Inter.woff2)</code>. Renders read them from the store, never from the network.
      </p>
      <div className="asset-upload">
        <label htmlFor="asset-folder">Folder</label>
        <input id="asset-folder" className="input" placeholder="(none) or fonts" value={folder} onChange={(event) => setFolder(event.target.value)} />
        <span className="field-label">Upload</span>
        <FilePicker
          id="asset-file"
          label="Choose files…"
          chosen={upload.busy ? 'Uploading…' : 'Several at once are fine'}
          multiple
          disabled={upload.busy}
          inputRef={input}
          onChange={(event) => event.target.files?.length && void upload.run(event.target.files)}
        />
      </div>
      <ErrorNote>{upload.error ?? remove.error}</ErrorNote>
      {assets.error && <ErrorNote onRetry={assets.reload}>{assets.error}</ErrorNote>}
      {!assets.data && !assets.error && <Loading label="Loading assets…" />}
      {assets.data && assets.data.data.length === 0 && <p className="muted small">No assets yet.</p>}
      {assets.data && assets.data.data.length > 0 && (
        <table className="table assets-table">
          <tbody>
            {assets.data.data.map((asset) => (
              <tr key={asset.name}>
                <td className="mono">{asset.name}</td>
                <td className="muted small">{asset.content_type}</td>
                <td className="muted small">{formatBytes(asset.size)}</td>
                <td className="row-actions">
                  <button
                    type="button"
                    className="button ghost small danger-text"
                    onClick={() => void remove.run(asset.name)}
                    aria-label={`Delete ${asset.name}`}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
