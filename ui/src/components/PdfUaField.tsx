// The accessible PDF/UA choice of the playground and template studio forms, with the document
// language it marks the file with: the levels come from the server's /openapi.json
// (lib/pdf-options.ts); the hints say what the file needs (a title) and what composes.

import { useEffect, useState } from 'react';
import type { PdfOptions } from '../api/types.ts';
import { loadOptionSpec } from '../lib/pdf-options.ts';
import { Field, TextField } from './Fields.tsx';

export function PdfUaField({ idPrefix, value, onChange }: { idPrefix: string; value: PdfOptions; onChange: (next: PdfOptions) => void }) {
  const [levels, setLevels] = useState<string[]>([]);
  useEffect(() => {
    loadOptionSpec().then(
      (spec) => setLevels(spec.pdfUaLevels),
      () => setLevels([]),
    );
  }, []);
  const id = `${idPrefix}-pdf-ua`;
  return (
    <>
      <Field label="PDF/UA" id={id} hint="Accessible file, checked before it is returned; needs a <title> or a metadata title">
        <select id={id} className="select" value={value.pdf_ua ?? ''} onChange={(event) => onChange({ ...value, pdf_ua: event.target.value || undefined })}>
          <option value="">No</option>
          {levels.map((level) => (
            <option key={level}>{level}</option>
          ))}
        </select>
      </Field>
      <TextField
        label="Language"
        id={`${idPrefix}-lang`}
        hint="BCP 47, e.g. en or de-DE; default: the page’s <html lang>"
        value={value.lang ?? ''}
        onChange={(next) => onChange({ ...value, lang: next.trim() || undefined })}
      />
    </>
  );
}
