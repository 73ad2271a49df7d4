// Importing a signing certificate: a PKCS#12 file with its password, or a PEM key and chain (pasted
// or read from files); owned by one key or by the operator (then granted to keys on the list).

import { useState } from 'react';
import { importCertificate, type Certificate } from '../api/certificates.ts';
import type { KeyRecord } from '../api/types.ts';
import { FormDialog } from '../components/Dialog.tsx';
import { FilePicker } from '../components/FilePicker.tsx';
import { Field, TextField } from '../components/Fields.tsx';
import { Segmented } from '../components/Segmented.tsx';
import { Select } from '../components/Select.tsx';
import { useAction } from '../lib/hooks.ts';
import { readBase64 } from '../lib/read-file.ts';

type Kind = 'pkcs12' | 'pem';

export function ImportCertificateDialog({
  open,
  keys,
  onClose,
  onImported,
}: {
  open: boolean;
  keys: KeyRecord[];
  onClose: () => void;
  onImported: (certificate: Certificate) => void;
}) {
  // duplicates: each form holds its own fields’ state, alike in shape to CreateKeyDialog’s.
  const [kind, setKind] = useState<Kind>('pkcs12');
  const [p12, setP12] = useState<File>();
  const [password, setPassword] = useState('');
  const [keyPem, setKeyPem] = useState('');
  const [chainPem, setChainPem] = useState('');
  const [owner, setOwner] = useState('');
  const [name, setName] = useState('');
  // Every field starts empty at the next import, the owner too: a remembered owner sent the second
  // import to the first one's key without anyone choosing it.
  const clear = () => {
    setP12(undefined);
    setPassword('');
    setKeyPem('');
    setChainPem('');
    setOwner('');
    setName('');
  };
  const importing = useAction(async () => {
    const common = { ...(name ? { name } : {}), ...(owner ? { owner_key_id: owner } : {}) };
    const certificate =
      kind === 'pkcs12'
        ? await importCertificate({ ...common, pkcs12: await readBase64(p12!), password })
        : await importCertificate({ ...common, key_pem: keyPem, certificate_pem: chainPem, ...(password ? { password } : {}) });
    onImported(certificate);
    clear();
  });
  const ready = kind === 'pkcs12' ? Boolean(p12) : Boolean(keyPem.trim() && chainPem.trim());
  const readInto = (set: (text: string) => void) => (file: File | undefined) => void file?.text().then(set);
  return (
    <FormDialog
      open={open}
      title="Import a certificate"
      wide
      onClose={() => {
        clear();
        onClose();
      }}
      onSubmit={() => ready && void importing.run()}
      error={importing.error}
      busy={importing.busy}
      ready={ready}
      submitLabel="Import"
      busyLabel="Importing…"
    >
      {/* duplicates: a call of the shared Segmented, alike in shape to the playground’s tabs. */}
      <Segmented
        name="certificate-kind"
        label="Format"
        value={kind}
        choices={['pkcs12', 'pem'] as const}
        labels={{ pkcs12: 'PKCS#12 file', pem: 'PEM key and chain' }}
        onChange={setKind}
      />
      {kind === 'pkcs12' ? (
        <Field label="PKCS#12 file" id="certificate-p12" hint=".p12 or .pfx with the private key">
          <FilePicker id="certificate-p12" label="Choose file" accept=".p12,.pfx" chosen={p12?.name} onChange={(event) => setP12(event.target.files?.[0])} />
        </Field>
      ) : (
        <>
          <Field label="Private key (PEM)" id="certificate-key-pem" hint="PKCS#8, PKCS#1 or SEC1; encrypted ones need the password">
            <textarea id="certificate-key-pem" className="input mono" rows={5} value={keyPem} onChange={(event) => setKeyPem(event.target.value)} />
          </Field>
          <FilePicker id="certificate-key-file" label="Read key from file" onChange={(event) => readInto(setKeyPem)(event.target.files?.[0])} />
          <Field label="Certificate and chain (PEM)" id="certificate-chain-pem" hint="The signer’s certificate and its CAs, any order">
            <textarea id="certificate-chain-pem" className="input mono" rows={5} value={chainPem} onChange={(event) => setChainPem(event.target.value)} />
          </Field>
          <FilePicker id="certificate-chain-file" label="Read chain from file" onChange={(event) => readInto(setChainPem)(event.target.files?.[0])} />
        </>
      )}
      <TextField
        label="Password"
        id="certificate-password"
        hint={kind === 'pkcs12' ? 'The file’s password; never stored' : 'Only for an encrypted key; never stored'}
        type="password"
        autoComplete="off"
        value={password}
        onChange={setPassword}
      />
      <Field label="Owner" id="certificate-owner" hint="The operator’s certificates sign for the keys they are granted to">
        <Select
          id="certificate-owner"
          value={owner}
          choices={[{ value: '', label: 'The operator' }, ...keys.map((key) => ({ value: key.id, label: `${key.name} (${key.id})` }))]}
          onChange={setOwner}
        />
      </Field>
      <TextField label="Name" id="certificate-name" hint="Default: the certificate’s subject" value={name} onChange={setName} />
    </FormDialog>
  );
}
