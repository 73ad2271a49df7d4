// A template's versions in the editor: every save, newest first and paged, each one viewable,
// diffable against the current template, restorable (as a new save) and visually checked.

import { useState } from 'react';
import { diffVersion, getVersion, listVersions, restoreVersion } from '../../api/templates.ts';
import type { KeyRecord, Template, TemplateVersionSummary } from '../../api/types.ts';
import { useAction, useCursorPages, useLoad } from '../../lib/hooks.ts';
import { formatDate, formatShortDate } from '../../lib/format.ts';
import { keyName } from '../../components/KeySelect.tsx';
import { Card, ErrorNote, Loading } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { ConfirmDialog, Dialog } from '../../components/Dialog.tsx';
import { VisualCheck } from './VisualCheck.tsx';

const PAGE_SIZE = 10;

type Shown = { kind: 'view' | 'diff' | 'check'; version: number };

export function VersionsPanel({
  templateId,
  reloadKey,
  keys,
  onRestored,
}: {
  templateId: string;
  reloadKey: string;
  /** The admin's keys, to show who saved a version by name (the id stays in the tooltip). */
  keys: KeyRecord[] | undefined;
  onRestored: (template: Template) => void;
}) {
  const pages = useCursorPages();
  const versions = useLoad((signal) => listVersions(templateId, { cursor: pages.cursor, limit: PAGE_SIZE }, signal), [templateId, pages.cursor, reloadKey]);
  const [shown, setShown] = useState<Shown | null>(null);
  const [restoring, setRestoring] = useState<TemplateVersionSummary | null>(null);
  const restore = useAction(async (version: number) => {
    onRestored(await restoreVersion(templateId, version));
    setRestoring(null);
  });

  return (
    <Card title="Versions" className="versions-card">
      <p className="muted small">
        Every save is kept as a version. A render may name one with <code>template_version</code>.
      </p>
      {versions.error && <ErrorNote onRetry={versions.reload}>{versions.error}</ErrorNote>}
      {!versions.data && !versions.error && <Loading label="Loading versions…" />}
      {versions.data && (
        <table className="table versions-table">
          <thead>
            <tr>
              <th>Version</th>
              <th>Saved</th>
              <th>By</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {versions.data.data.map((version, at) => {
              // Newest first, and every save (a restore too) is a new version: the first row of the first page is the template as saved now.
              const current = pages.page === 0 && at === 0;
              return (
                <tr key={version.version} data-current={current || undefined}>
                  <td>
                    <span className="nowrap">
                      <span className="mono">v{version.version}</span>
                      {current && <span className="pill pill-current">current</span>}
                    </span>
                    {/* The name only where it differs from the newest: a rename is worth seeing, the same name twice is not. */}
                    {version.name !== versions.data?.data[0]?.name && <div className="muted small">“{version.name}”</div>}
                  </td>
                  <td className="nowrap" title={formatDate(version.created_at)}>
                    <time dateTime={version.created_at}>{formatShortDate(version.created_at)}</time>
                  </td>
                  <td title={version.created_by}>{savedBy(keys, version.created_by)}</td>
                  <td className="row-actions">
                    <VersionAction label="View" version={version.version} onClick={() => setShown({ kind: 'view', version: version.version })} />
                    {!current && <VersionAction label="Diff" version={version.version} onClick={() => setShown({ kind: 'diff', version: version.version })} />}
                    <VersionAction label="Check" version={version.version} onClick={() => setShown({ kind: 'check', version: version.version })} />
                    {!current && <VersionAction label="Restore" version={version.version} onClick={() => setRestoring(version)} />}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <Pager
        page={pages.page}
        hasNext={Boolean(versions.data?.next_cursor)}
        onPrevious={pages.previous}
        onNext={() => pages.next(versions.data?.next_cursor)}
        count={versions.data?.data.length ?? 0}
        pageSize={PAGE_SIZE}
        busy={versions.loading}
      />
      <Dialog open={shown !== null} wide title={shown ? titleOf(shown) : ''} onClose={() => setShown(null)}>
        {shown?.kind === 'view' && <VersionSource templateId={templateId} version={shown.version} keys={keys} />}
        {shown?.kind === 'diff' && <VersionDiffView templateId={templateId} version={shown.version} />}
        {shown?.kind === 'check' && <VisualCheck templateId={templateId} version={shown.version} />}
      </Dialog>
      <ConfirmDialog
        open={restoring !== null}
        title={`Restore v${restoring?.version ?? ''}?`}
        confirmLabel="Restore"
        busy={restore.busy}
        error={restore.error}
        onClose={() => setRestoring(null)}
        onConfirm={() => restoring && void restore.run(restoring.version)}
      >
        {`Its name, text, format and sample data become current again, saved as a new version; unsaved edits in the editor are replaced.`}
      </ConfirmDialog>
    </Card>
  );
}

function VersionAction({ label, version, onClick }: { label: string; version: number; onClick: () => void }) {
  return (
    <button type="button" className="button ghost small" onClick={onClick} aria-label={`${label} v${version}`}>
      {label}
    </button>
  );
}

function titleOf(shown: Shown): string {
  if (shown.kind === 'view') return `Version ${shown.version}`;
  if (shown.kind === 'diff') return `Version ${shown.version} → current`;
  return `Visual check of version ${shown.version}`;
}

/** created_by is a key id or "admin" (docs/api.md#template-versions). */
function savedBy(keys: KeyRecord[] | undefined, createdBy: string): string {
  return createdBy === 'admin' ? 'admin' : keyName(keys, createdBy);
}

function VersionSource({ templateId, version, keys }: { templateId: string; version: number; keys: KeyRecord[] | undefined }) {
  const loaded = useLoad((signal) => getVersion(templateId, version, signal), [templateId, version]);
  if (loaded.error) return <ErrorNote>{loaded.error}</ErrorNote>;
  if (!loaded.data) return <Loading />;
  return (
    <>
      <p className="muted small">
        “{loaded.data.name}”, saved {formatDate(loaded.data.created_at)} by {savedBy(keys, loaded.data.created_by)}
      </p>
      <pre className="code-block version-source">{loaded.data.html}</pre>
      <pre className="code-block">{JSON.stringify(loaded.data.sample_data, null, 2)}</pre>
    </>
  );
}

function VersionDiffView({ templateId, version }: { templateId: string; version: number }) {
  const loaded = useLoad((signal) => diffVersion(templateId, version, signal), [templateId, version]);
  if (loaded.error) return <ErrorNote>{loaded.error}</ErrorNote>;
  if (!loaded.data) return <Loading />;
  const diff = loaded.data;
  const notes = [diff.name_changed && 'the name changed', diff.format_changed && 'the format changed', diff.sample_data_changed && 'the sample data changed']
    .filter(Boolean)
    .join('; ');
  return (
    <>
      <p className="muted small">
        From v{diff.version} to the current template (v{diff.current_version}){notes ? `: ${notes}` : ''}.
      </p>
      {diff.html_diff === '' ? (
        <p>The HTML is the same.</p>
      ) : (
        <pre className="code-block diff" data-testid="version-diff">
          {diff.html_diff.split('\n').map((line, at) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines of a fixed diff text; a line's position is its identity
            <span key={at} className={line.startsWith('+') ? 'diff-add' : line.startsWith('-') ? 'diff-del' : line.startsWith('@@') ? 'diff-hunk' : undefined}>
              {line}
              {'\n'}
            </span>
          ))}
        </pre>
      )}
    </>
  );
}
