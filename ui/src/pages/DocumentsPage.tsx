// Stored documents of every key, newest first, a page at a time (cursor paging stays fast with
// thousands): open in a viewer, download, delete; filter by key.

import { useEffect, useState } from 'react';
import { listKeys } from '../api/keys.ts';
import { deleteDocument, fetchDocument, listDocuments } from '../api/documents.ts';
import { filenameOf } from '../api/client.ts';
import type { StoredDocument } from '../api/types.ts';
import { useAction, useCursorPages, useLoad } from '../lib/hooks.ts';
import { formatBytes, formatDate, timeAgo, timeLeft } from '../lib/format.ts';
import { documentName, sourceLabel } from '../lib/document-name.ts';
import { EmptyState, ErrorNote, Loading, PageHeader } from '../components/Page.tsx';
import { ListCard } from '../components/ListCard.tsx';
import { keyName } from '../components/KeySelect.tsx';
import { ACTIONS_COLUMN, KeyFilterBar, Table } from '../components/Table.tsx';
import { ConfirmDialog, Dialog } from '../components/Dialog.tsx';
import { PdfPreview, downloadPdf } from '../components/PdfPreview.tsx';
import { DocumentThumbnail } from '../components/DocumentThumbnail.tsx';
import { DocumentToolActions } from '../components/DocumentToolActions.tsx';

const PAGE_SIZE = 50;

export function DocumentsPage() {
  // duplicates: a keyed, paged list's state, alike in shape to BatchesPage's; the paging itself is useCursorPages.
  const [keyId, setKeyId] = useState('');
  const pages = useCursorPages();
  const { cursor } = pages;
  const keys = useLoad((signal) => listKeys(signal), []);
  const documents = useLoad((signal) => listDocuments({ key_id: keyId || undefined, cursor, limit: PAGE_SIZE }, signal), [keyId, cursor]);
  const [viewing, setViewing] = useState<{ document: StoredDocument; bytes: Uint8Array | null; error?: string } | null>(null);
  const [deleting, setDeleting] = useState<StoredDocument | null>(null);

  const download = useAction(async (document: StoredDocument) => {
    const { bytes } = await fetchDocument(document.id);
    downloadPdf(bytes, document.filename ?? `${document.id}.pdf`);
  });
  const remove = useAction(async (document: StoredDocument) => {
    await deleteDocument(document.id);
    documents.setData((page) => page && { ...page, data: page.data.filter((item) => item.id !== document.id) });
    setDeleting(null);
  });

  const open = async (document: StoredDocument) => {
    setViewing({ document, bytes: null });
    try {
      const { bytes, headers } = await fetchDocument(document.id);
      // A document opened by its id alone (a batch item's link) learns its name from the response.
      const named = document.filename ? document : { ...document, filename: filenameOf(headers) ?? null };
      setViewing((current) => (current?.document.id === document.id ? { document: named, bytes } : current));
    } catch (failure) {
      setViewing((current) => (current?.document.id === document.id ? { document, bytes: null, error: (failure as Error).message } : current));
    }
  };

  const rows = documents.data?.data ?? [];
  // A link from elsewhere (a batch item) names one document: it opens in the viewer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the address the screen was opened with
  useEffect(() => {
    const linked = new URLSearchParams(location.search).get('id');
    if (linked) void open({ id: linked, filename: null, source: 'render', created_at: '' } as StoredDocument);
  }, []);

  return (
    <>
      <PageHeader
        title="Documents"
        description="Stored copies of renders (store: true, auto-store, batches), kept for the plan’s retention and then deleted for good."
      />
      <KeyFilterBar id="document-key-filter" keys={keys.data} value={keyId} onChange={setKeyId} pages={pages}>
        <button type="button" className="button ghost small" onClick={documents.reload}>
          Refresh
        </button>
      </KeyFilterBar>
      <ErrorNote onRetry={documents.reload}>{documents.error}</ErrorNote>
      <ErrorNote>{download.error}</ErrorNote>
      {/* duplicates: a call of the shared ListCard, alike in shape to TemplatesPage's and CertificatesPage's. */}
      <ListCard
        list={documents}
        rows={documents.data?.data}
        loadingLabel="Loading documents…"
        paging={{ pages, pageSize: PAGE_SIZE, nextCursor: documents.data?.next_cursor }}
        empty={
          <EmptyState title={keyId ? 'This key has no stored documents' : 'No stored documents'}>
            A render is kept when it is sent with <code>store: true</code>, when its key has auto-store on, or when it is part of a batch.
          </EmptyState>
        }
      >
        <Table
          label="Documents"
          columns={[
            { label: 'Document' },
            { label: 'Source' },
            { label: 'Key' },
            { label: 'Pages', className: 'num' },
            { label: 'Size', className: 'num' },
            { label: 'Kept' },
            ACTIONS_COLUMN,
          ]}
        >
          {rows.map((document) => (
            <tr key={document.id} data-document-id={document.id}>
              <td>
                <div className="doc-cell">
                  <DocumentThumbnail id={document.id} />
                  <div>
                    <div className="strong wrap-anywhere">{documentName(document)}</div>
                    <div className="mono muted small">{document.id}</div>
                  </div>
                </div>
              </td>
              {/* The batch's id in the tooltip: beside the three buttons the row has no room for it at 1024 px. */}
              <td title={document.batch_id}>{sourceLabel(document.source)}</td>
              <td>{keyName(keys.data, document.key_id)}</td>
              <td className="num" title={document.pages === null ? 'Not recorded for this document' : undefined}>
                {document.pages ?? '—'}
              </td>
              <td className="num nowrap">{formatBytes(document.size)}</td>
              <td className="nowrap">
                <div title={`created ${formatDate(document.created_at)}`}>{timeLeft(document.expires_at)}</div>
                <div className="muted small" title={`expires ${formatDate(document.expires_at)}`}>
                  stored {timeAgo(document.created_at)}
                </div>
              </td>
              <td className="row-actions">
                {/* Five actions: stacked in two columns (one below 1200 px) so the row fits its card at 1024 px. */}
                <div className="action-stack">
                  <button type="button" className="button ghost small" onClick={() => void open(document)}>
                    Open
                  </button>
                  <button type="button" className="button ghost small" onClick={() => void download.run(document)} disabled={download.busy}>
                    Download
                  </button>
                  <DocumentToolActions id={document.id} name={documentName(document)} />
                  <button type="button" className="button ghost small danger-text" onClick={() => setDeleting(document)}>
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </Table>
      </ListCard>

      <Dialog
        open={viewing !== null}
        wide
        title={viewing ? documentName(viewing.document) : ''}
        onClose={() => setViewing(null)}
        footer={
          viewing?.bytes && (
            <button
              type="button"
              className="button primary"
              onClick={() => viewing.bytes && downloadPdf(viewing.bytes, viewing.document.filename ?? `${viewing.document.id}.pdf`)}
            >
              Download
            </button>
          )
        }
      >
        {viewing?.error ? <ErrorNote>{viewing.error}</ErrorNote> : viewing && !viewing.bytes ? <Loading label="Fetching the PDF…" /> : null}
        {viewing?.bytes && <PdfPreview bytes={viewing.bytes} label={`Document ${viewing.document.id}`} />}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this document?"
        confirmLabel="Delete document"
        busy={remove.busy}
        error={remove.error}
        onClose={() => {
          setDeleting(null);
          remove.setError(undefined);
        }}
        onConfirm={() => deleting && void remove.run(deleting)}
      >
        {`${deleting?.filename ?? deleting?.id ?? ''} is deleted from disk at once; its link answers 404 afterwards.`}
      </ConfirmDialog>
    </>
  );
}
