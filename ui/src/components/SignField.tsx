// The sign option (docs/api.md#signing-pades) in the admin window's document forms: a key, one of
// the certificates that key may sign with, the PAdES level, reason and location. The previews of
// the admin window run without a key, so they stay unsigned: the option goes into the request
// samples, which run with the key. Not on the public playground (it has no certificates).

import { useEffect, useState } from 'react';
import { listCertificates, usableBy, type Certificate } from '../api/certificates.ts';
import { listKeys } from '../api/keys.ts';
import type { KeyRecord, SignOption } from '../api/types.ts';
import { loadOptionSpec } from '../lib/pdf-options.ts';
import { KeySelect } from './KeySelect.tsx';
import { Field, SelectField } from './Fields.tsx';

export function SignField({
  id,
  value,
  onChange,
  keyId: fixedKey,
}: {
  id: string;
  value: SignOption | undefined;
  onChange: (next: SignOption | undefined) => void;
  /** The key that signs when the form has one (a template's owner); otherwise the field asks. */
  keyId?: string;
}) {
  const [keys, setKeys] = useState<KeyRecord[]>([]);
  const [certificates, setCertificates] = useState<Certificate[]>([]);
  const [levels, setLevels] = useState<string[]>([]);
  const [chosenKey, setChosenKey] = useState('');
  useEffect(() => {
    void listCertificates().then(setCertificates, () => setCertificates([]));
    void loadOptionSpec().then(
      (spec) => setLevels(spec.sign.levels),
      () => setLevels([]),
    );
    if (fixedKey === undefined) void listKeys().then(setKeys, () => setKeys([]));
  }, [fixedKey]);
  const keyId = fixedKey ?? chosenKey;
  const usable = keyId ? usableBy(certificates, keyId) : [];
  const set = (field: Partial<SignOption>) => value && onChange({ ...value, ...field });
  return (
    <>
      {fixedKey === undefined && (
        <KeySelect
          id={`${id}-key`}
          label="Sign as key"
          stacked
          keys={keys}
          value={chosenKey}
          allLabel="Don’t sign"
          onChange={(next) => {
            setChosenKey(next);
            onChange(undefined);
          }}
        />
      )}
      {keyId && (
        <Field
          label="Certificate"
          id={id}
          hint={
            usable.length
              ? 'Signed in the request samples; this preview has no key and stays unsigned'
              : 'This key has no certificate: import or grant one under Certificates'
          }
        >
          <select
            id={id}
            className="select"
            value={value?.certificate_id ?? ''}
            onChange={(event) => onChange(event.target.value ? { ...value, certificate_id: event.target.value } : undefined)}
          >
            <option value="">Don’t sign</option>
            {usable.map((certificate) => (
              <option key={certificate.id} value={certificate.id}>
                {certificate.name} ({certificate.fingerprint.slice(0, 16)}…){certificate.warning ? `: ${certificate.warning}` : ''}
              </option>
            ))}
          </select>
        </Field>
      )}
      {value && (
        <>
          <SelectField
            label="Signature level"
            id={`${id}-level`}
            hint="B-T adds a timestamp from the server’s TSA"
            value={value.level ?? levels[0] ?? ''}
            choices={levels}
            onChange={(level) => set({ level })}
          />
          <Field label="Reason" id={`${id}-reason`}>
            <input id={`${id}-reason`} className="input" value={value.reason ?? ''} onChange={(event) => set({ reason: event.target.value || undefined })} />
          </Field>
          <Field label="Location" id={`${id}-location`}>
            <input
              id={`${id}-location`}
              className="input"
              value={value.location ?? ''}
              onChange={(event) => set({ location: event.target.value || undefined })}
            />
          </Field>
        </>
      )}
    </>
  );
}
