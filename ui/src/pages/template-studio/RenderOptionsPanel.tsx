// The template studio's render options: the header and footer, PDF/A, PDF/UA, the signature, attachments and
// the e-invoice (written from the template's data or given as XML). None of them is part of the saved
// template: they are tried in the preview (which runs the final steps as a render does) and sent
// with each render, so they show in the "Render it by id" snippet. The pane sits below the editor
// and the preview, full width and unboxed: in the preview's column it pushed the preview below the fold.

import type { PdfOptions } from '../../api/types.ts';
import { AttachmentsForm } from '../../components/AttachmentsForm.tsx';
import { HeaderFooterForm } from '../../components/HeaderFooterForm.tsx';
import { PdfAField } from '../../components/PdfAField.tsx';
import { PdfUaField } from '../../components/PdfUaField.tsx';
import { SignField } from '../../components/SignField.tsx';

/** `keyId`: the template's key, whose certificates the signature may use (the preview itself stays unsigned). */
export function RenderOptionsPanel({ value, onChange, keyId }: { value: PdfOptions; onChange: (next: PdfOptions) => void; keyId: string }) {
  return (
    <details className="editor-pane running-pane" data-testid="running-pane">
      <summary className="pane-head">Header and footer, PDF/A, signature, attachments, e-invoice, PDF/UA</summary>
      <HeaderFooterForm value={value} onChange={onChange} />
      {/* One padded grid for the rest: PDF/A and the signature's fields sat on the pane's border. */}
      <div className="options-grid">
        <PdfAField id="studio-pdf-a" value={value.pdf_a} onChange={(next) => onChange({ ...value, pdf_a: next })} />
        <PdfUaField idPrefix="studio" value={value} onChange={onChange} />
        <SignField id="studio-sign" keyId={keyId} value={value.sign} onChange={(next) => onChange({ ...value, sign: next })} />
        <AttachmentsForm value={value} onChange={onChange} idPrefix="studio" fromData />
      </div>
    </details>
  );
}

/** The render options that say something; undefined when none does. */
export function givenRenderOptions(options: PdfOptions): PdfOptions | undefined {
  const out: PdfOptions = {};
  for (const name of ['header', 'footer', 'pdf_a', 'pdf_ua', 'lang', 'attachments', 'e_invoice'] as const) {
    if (options[name] !== undefined) Object.assign(out, { [name]: options[name] });
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
