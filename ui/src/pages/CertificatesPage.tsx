// Signing certificates (docs/api.md#signing-pades): import (PKCS#12 or PEM), the list with the
// facts a security officer checks (subject, issuer, serial, validity, fingerprint), a warning
// within 30 days of expiry, the keys an operator certificate is granted to, and delete.

import { useState } from 'react';
import { daysLeft, deleteCertificate, listCertificates, setCertificateGrants, type Certificate } from '../api/certificates.ts';
import { listKeys } from '../api/keys.ts';
import type { KeyRecord } from '../api/types.ts';
import { ConfirmDialog, Dialog } from '../components/Dialog.tsx';
import { keyName } from '../components/KeySelect.tsx';
import { Check } from '../components/Fields.tsx';
import { Fingerprint } from '../components/Fingerprint.tsx';
import { EmptyState, ErrorNote, PageHeader } from '../components/Page.tsx';
import { ListCard } from '../components/ListCard.tsx';
import { ACTIONS_COLUMN, Table } from '../components/Table.tsx';
import { formatDay } from '../lib/format.ts';
import { useAction, useLoad } from '../lib/hooks.ts';
import { ImportCertificateDialog } from './ImportCertificateDialog.tsx';

export function CertificatesPage() {
  const certificates = useLoad((signal) => listCertificates(signal), []);
  const keys = useLoad((signal) => listKeys(signal), []);
  const [importing, setImporting] = useState(false);
  const [granting, setGranting] = useState<Certificate | null>(null);
  const [deleting, setDeleting] = useState<Certificate | null>(null);
  const replace = (updated: Certificate) => certificates.setData((list) => list?.map((item) => (item.id === updated.id ? updated : item)));
  const removing = useAction(async (certificate: Certificate) => {
    await deleteCertificate(certificate.id);
    certificates.setData((list) => list?.filter((item) => item.id !== certificate.id));
    setDeleting(null);
  });
  const importButton = (
    <button type="button" className="button primary" onClick={() => setImporting(true)}>
      Import certificate
    </button>
  );
  return (
    <>
      <PageHeader
        title="Certificates"
        description="The certificates documents are signed with (options.sign). Private keys are sealed under the server’s master key and never shown again."
        actions={importButton}
      />
      <ErrorNote onRetry={certificates.reload}>{certificates.error}</ErrorNote>
      {/* duplicates: a call of the shared ListCard and Table, alike in shape to the other lists’ (Templates, Documents). */}
      <ListCard
        list={certificates}
        rows={certificates.data}
        loadingLabel="Loading certificates…"
        empty={
          <EmptyState title="No signing certificates" action={importButton}>
            Import a PKCS#12 file or a PEM key and chain, for one key or for the operator.
          </EmptyState>
        }
      >
        <Table
          label="Signing certificates"
          columns={[
            { label: 'Certificate' },
            { label: 'Issuer' },
            { label: 'Valid' },
            { label: 'Fingerprint', title: 'sha256 of the certificate' },
            { label: 'Used by' },
            ACTIONS_COLUMN,
          ]}
        >
          {certificates.data?.map((certificate) => (
            <CertificateRow
              key={certificate.id}
              certificate={certificate}
              keys={keys.data}
              onGrants={() => setGranting(certificate)}
              onDelete={() => setDeleting(certificate)}
            />
          ))}
        </Table>
      </ListCard>
      <ImportCertificateDialog
        open={importing}
        keys={keys.data ?? []}
        onClose={() => setImporting(false)}
        onImported={(certificate) => {
          setImporting(false);
          certificates.setData((list) => [...(list ?? []), certificate]);
        }}
      />
      <GrantsDialog certificate={granting} keys={keys.data ?? []} onClose={() => setGranting(null)} onSaved={replace} />
      {/* duplicates: a call of the shared ConfirmDialog with this screen’s words, alike in shape to KeysPage’s. */}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete certificate"
        busy={removing.busy}
        error={removing.error}
        onConfirm={() => deleting && void removing.run(deleting)}
        onClose={() => setDeleting(null)}
      >
        Its sealed private key is deleted with it: requests naming it are refused from now on (404 certificate_not_found). Signed documents stay valid.
      </ConfirmDialog>
    </>
  );
}

function CertificateRow({
  certificate,
  keys,
  onGrants,
  onDelete,
}: {
  certificate: Certificate;
  keys: KeyRecord[] | undefined;
  onGrants: () => void;
  onDelete: () => void;
}) {
  const days = daysLeft(certificate);
  return (
    <tr data-certificate-id={certificate.id}>
      <td>
        <div className="strong">{certificate.name}</div>
        <div className="muted small">{certificate.subject}</div>
        {/* The serial (up to 40 hex digits) breaks anywhere: whole, it widened the table past 1024 px. */}
        <div className="muted small wrap-anywhere">
          <span className="mono">{certificate.id}</span> · serial <span className="mono">{certificate.serial}</span> · {certificate.key_type.toUpperCase()}
        </div>
      </td>
      <td className="small">{certificate.issuer}</td>
      <td className="small">
        {formatDay(certificate.not_before)} – {formatDay(certificate.not_after)}
        <div>
          {days <= 0 ? (
            <span className="pill pill-failed">Expired</span>
          ) : days <= 30 ? (
            <span className="pill pill-warn nowrap" title={certificate.warning}>
              Expires in {days} {days === 1 ? 'day' : 'days'}
            </span>
          ) : null}
        </div>
      </td>
      <td>
        <Fingerprint value={certificate.fingerprint} />
      </td>
      <td className="small">
        {certificate.owner !== null
          ? `Key ${keyName(keys, certificate.owner)}`
          : certificate.grants.length === 0
            ? 'Operator: no key yet'
            : `Operator, granted to ${certificate.grants.map((id) => keyName(keys, id)).join(', ')}`}
      </td>
      <td className="row-actions">
        {/* duplicates: row buttons with this row’s own actions, alike in shape to KeyRow’s. */}
        {certificate.owner === null && (
          <button type="button" className="button ghost small" onClick={onGrants}>
            Grants
          </button>
        )}
        <button type="button" className="button ghost small danger-text" onClick={onDelete}>
          Delete
        </button>
      </td>
    </tr>
  );
}

/** The keys that may sign with an operator certificate (the list replaces the old one). */
function GrantsDialog({
  certificate,
  keys,
  onClose,
  onSaved,
}: {
  certificate: Certificate | null;
  keys: KeyRecord[];
  onClose: () => void;
  onSaved: (certificate: Certificate) => void;
}) {
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  const current = chosen ?? new Set(certificate?.grants ?? []);
  const close = () => {
    setChosen(null);
    onClose();
  };
  const saving = useAction(async () => {
    if (!certificate) return;
    onSaved(await setCertificateGrants(certificate.id, [...current]));
    close();
  });
  const toggle = (id: string, on: boolean) => {
    const next = new Set(current);
    if (on) next.add(id);
    else next.delete(id);
    setChosen(next);
  };
  return (
    <Dialog
      open={certificate !== null}
      title={`Keys that may sign with “${certificate?.name ?? ''}”`}
      onClose={close}
      footer={
        <>
          <button type="button" className="button ghost" onClick={close}>
            Cancel
          </button>
          <button type="button" className="button primary" disabled={saving.busy} onClick={() => void saving.run()}>
            {saving.busy ? 'Saving…' : 'Save grants'}
          </button>
        </>
      }
    >
      {keys.length === 0 ? (
        <p className="muted">No API keys yet.</p>
      ) : (
        <div className="checks">
          {keys.map((key) => (
            <Check key={key.id} label={`${key.name} (${key.id})`} checked={current.has(key.id)} onChange={(on) => toggle(key.id, on)} />
          ))}
        </div>
      )}
      {saving.error && (
        <p className="error-text" role="alert">
          {saving.error}
        </p>
      )}
    </Dialog>
  );
}
