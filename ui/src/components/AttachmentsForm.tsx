// Attachments and the e-invoice as a form: files picked here are embedded as associated files
// (base64 in the request), each with its relationship; an e-invoice is a profile and a CII XML file,
// or (in the template studio) written from the template's data. Used by the render options, the
// office playground and the template studio: each passes its own options object.

import { useState } from 'react';
import type { AfRelationship, EInvoiceProfile, PdfAttachment, PdfOptions } from '../api/types.ts';
import { Check, Field, SelectField } from './Fields.tsx';
import { readBase64 } from '../lib/read-file.ts';

/** The two options this form edits, in whichever options object holds them. */
export type AttachmentOptions = Pick<PdfOptions, 'attachments' | 'e_invoice'>;

const RELATIONSHIPS: AfRelationship[] = ['Unspecified', 'Source', 'Data', 'Alternative', 'Supplement'];
const PROFILES: EInvoiceProfile[] = ['MINIMUM', 'BASIC WL', 'BASIC', 'EN 16931', 'EXTENDED', 'XRECHNUNG'];

export function AttachmentsForm<T extends AttachmentOptions>({
  value,
  onChange,
  idPrefix = 'opt',
  fromData = false,
}: {
  value: T;
  onChange: (next: T) => void;
  /** Keeps the fields' ids apart where two forms could share a page. */
  idPrefix?: string;
  /** Offers options.e_invoice.from_data: only a template render has data to write the invoice from. */
  fromData?: boolean;
}) {
  const files = value.attachments ?? [];
  const invoice = value.e_invoice;
  // The profile chosen before there is an invoice (no XML yet) is kept here and used when the XML comes (issue 39, item 13).
  const [chosenProfile, setChosenProfile] = useState<EInvoiceProfile>('EN 16931');
  const profile = invoice?.profile ?? chosenProfile;
  const setFiles = (next: PdfAttachment[]) => onChange({ ...value, attachments: next.length > 0 ? next : undefined });
  const add = async (picked: FileList | null) => {
    const added = await Promise.all(
      [...(picked ?? [])].map(async (file) => ({ filename: file.name, content: await readBase64(file), mime_type: file.type || undefined })),
    );
    setFiles([...files.filter((file) => !added.some((other) => other.filename === file.filename)), ...added]);
  };
  const pickXml = async (file: File | undefined) => {
    if (!file) return onChange({ ...value, e_invoice: undefined });
    onChange({ ...value, e_invoice: { profile, xml: await file.text() } });
  };
  const id = (name: string) => `${idPrefix}-${name}`;
  // A fragment: its fields sit in the grid of the form it is part of (DocumentOptionsForm).
  return (
    <>
      <h3 className="options-heading">Attachments</h3>
      <Field label="Attach files" id={id('attach-files')} hint="Up to 20, 5 MB each, 10 MB together">
        <input id={id('attach-files')} className="input" type="file" multiple onChange={(event) => void add(event.target.files)} />
      </Field>
      {files.map((file, index) => (
        <SelectField
          key={file.filename}
          label={file.filename}
          id={id(`attach-${index}`)}
          hint="Relationship to the document"
          value={file.relationship ?? 'Unspecified'}
          choices={RELATIONSHIPS}
          onChange={(next) => setFiles(files.map((other, at) => (at === index ? { ...other, relationship: next as AfRelationship } : other)))}
        />
      ))}
      {files.length > 0 && (
        <button type="button" className="button" onClick={() => setFiles([])}>
          Remove attachments
        </button>
      )}

      <h3 className="options-heading">E-invoice (Factur-X / ZUGFeRD / XRechnung)</h3>
      {fromData && (
        <Check
          label="Write the invoice from the template’s data"
          checked={invoice?.from_data === true}
          onChange={(on) => onChange({ ...value, e_invoice: on ? { profile, from_data: true } : undefined })}
        />
      )}
      <Field
        label="Invoice XML"
        id={id('einvoice-xml')}
        hint={invoice?.xml ? 'XML chosen: checked against the profile’s schema' : 'The CII XML of the invoice'}
      >
        <input
          id={id('einvoice-xml')}
          className="input"
          type="file"
          accept=".xml,text/xml,application/xml"
          onChange={(event) => void pickXml(event.target.files?.[0])}
        />
      </Field>
      <SelectField
        label="Profile"
        id={id('einvoice-profile')}
        value={profile}
        choices={PROFILES}
        onChange={(next) => {
          setChosenProfile(next as EInvoiceProfile);
          // Only XRechnung is written in UBL: another profile drops the syntax.
          if (invoice)
            onChange({ ...value, e_invoice: { ...invoice, profile: next as EInvoiceProfile, syntax: next === 'XRECHNUNG' ? invoice.syntax : undefined } });
        }}
      />
      {profile === 'XRECHNUNG' && invoice?.from_data && (
        <SelectField
          label="Syntax"
          id={id('einvoice-syntax')}
          value={invoice.syntax ?? 'CII'}
          choices={['CII', 'UBL']}
          onChange={(next) => onChange({ ...value, e_invoice: { ...invoice, syntax: next === 'UBL' ? 'UBL' : undefined } })}
        />
      )}
    </>
  );
}
