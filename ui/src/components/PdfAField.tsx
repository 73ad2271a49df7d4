// The archival PDF/A choice of the playground, office playground and template studio forms: the
// levels come from the server's /openapi.json (lib/pdf-options.ts), the hint says what composes.

import { useEffect, useState } from 'react';
import { loadOptionSpec } from '../lib/pdf-options.ts';
import { Field } from './Fields.tsx';

export function PdfAField({ id, value, onChange }: { id: string; value: string | undefined; onChange: (next: string | undefined) => void }) {
  const [levels, setLevels] = useState<string[]>([]);
  useEffect(() => {
    loadOptionSpec().then(
      (spec) => setLevels(spec.pdfALevels),
      () => setLevels([]),
    );
  }, []);
  return (
    <Field label="PDF/A" id={id} hint="Archival file, checked before it is returned; a and 1b: see the docs; not with encryption">
      <select id={id} className="select" value={value ?? ''} onChange={(event) => onChange(event.target.value || undefined)}>
        <option value="">No</option>
        {levels.map((level) => (
          <option key={level}>{level}</option>
        ))}
      </select>
    </Field>
  );
}
