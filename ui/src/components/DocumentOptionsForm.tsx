// The post-processing options as a form: metadata, outline, the PDF/A level, PDF/UA with the
// document language, watermark (text or a
// PNG/JPEG file) and AES-256 encryption with its permissions, then attachments and the e-invoice
// (AttachmentsForm), and in the admin window the signature (SignField). Empty fields are left out
// of the request.

import type { PdfEncryption, PdfMetadata, PdfOptions, PdfWatermark, WatermarkPosition } from '../api/types.ts';
import type { OptionSpec } from '../lib/pdf-options.ts';
import { AttachmentsForm } from './AttachmentsForm.tsx';
import { Check, Field, NumberField, SelectField, TextField } from './Fields.tsx';
import { PdfAField } from './PdfAField.tsx';
import { PdfUaField } from './PdfUaField.tsx';
import { SignField } from './SignField.tsx';

export function DocumentOptionsForm({
  value,
  onChange,
  spec,
  signing = false,
}: {
  value: PdfOptions;
  onChange: (next: PdfOptions) => void;
  spec: OptionSpec;
  /** Offer options.sign: the admin window only, where keys and certificates can be listed. */
  signing?: boolean;
}) {
  const { defaults: WATERMARK_DEFAULTS, bounds, positions: POSITIONS } = spec.watermark;
  const metadata = value.metadata ?? {};
  const mark = value.watermark ?? {};
  const lock = value.encrypt ?? {};
  const permissions = lock.permissions ?? {};
  const setMeta = (field: Partial<PdfMetadata>) => onChange({ ...value, metadata: { ...metadata, ...field } });
  const setMark = (field: Partial<PdfWatermark>) => onChange({ ...value, watermark: { ...mark, ...field } });
  const setLock = (field: Partial<PdfEncryption>) => onChange({ ...value, encrypt: { ...lock, ...field } });
  const setPermission = (field: NonNullable<PdfEncryption['permissions']>) => setLock({ permissions: { ...permissions, ...field } });
  const pickImage = (file: File | undefined) => {
    if (!file) return setMark({ image: undefined });
    const reader = new FileReader();
    reader.onload = () => setMark({ image: String(reader.result), text: undefined });
    reader.readAsDataURL(file);
  };
  // duplicates: one call per option of the shared field rows (Fields.tsx), alike only in shape (OptionsForm, OfficePlayground).
  return (
    <div className="options-grid">
      <h3 className="options-heading">Metadata</h3>
      <TextField
        label="Title"
        id="opt-meta-title"
        hint="Default: the page’s <title>"
        value={metadata.title ?? ''}
        onChange={(next) => setMeta({ title: next })}
      />
      <TextField label="Author" id="opt-meta-author" value={metadata.author ?? ''} onChange={(next) => setMeta({ author: next })} />
      <TextField label="Subject" id="opt-meta-subject" value={metadata.subject ?? ''} onChange={(next) => setMeta({ subject: next })} />
      <TextField
        label="Keywords"
        id="opt-meta-keywords"
        hint="Comma-separated"
        value={(metadata.keywords ?? []).join(', ')}
        onChange={(next) =>
          setMeta({
            keywords: next
              .split(',')
              .map((word) => word.trim())
              .filter(Boolean),
          })
        }
      />
      <TextField label="Creator" id="opt-meta-creator" value={metadata.creator ?? ''} onChange={(next) => setMeta({ creator: next })} />
      <div className="checks">
        <Check label="Outline from headings" checked={value.outline ?? false} onChange={(checked) => onChange({ ...value, outline: checked })} />
      </div>

      <h3 className="options-heading">Archive and accessibility</h3>
      <PdfAField id="opt-pdf-a" value={value.pdf_a} onChange={(next) => onChange({ ...value, pdf_a: next })} />
      <PdfUaField idPrefix="opt" value={value} onChange={onChange} />

      <h3 className="options-heading">Watermark</h3>
      <TextField
        label="Watermark text"
        id="opt-mark-text"
        hint="Latin text, kept as text"
        value={mark.text ?? ''}
        placeholder="e.g. DRAFT"
        onChange={(next) => setMark({ text: next, image: undefined })}
      />
      <Field label="Watermark image" id="opt-mark-image" hint={mark.image ? 'Image chosen' : 'PNG or JPEG, instead of text'}>
        <input id="opt-mark-image" className="input" type="file" accept="image/png,image/jpeg" onChange={(event) => pickImage(event.target.files?.[0])} />
      </Field>
      <NumberField
        label="Opacity"
        id="opt-mark-opacity"
        hint="0 to 1"
        bounds={bounds.opacity}
        value={mark.opacity}
        placeholder={WATERMARK_DEFAULTS.opacity}
        onChange={(next) => setMark({ opacity: next })}
      />
      <NumberField
        label="Rotation"
        id="opt-mark-rotate"
        hint="Degrees"
        bounds={bounds.rotate}
        value={mark.rotate}
        placeholder={WATERMARK_DEFAULTS.rotate}
        onChange={(next) => setMark({ rotate: next })}
      />
      <NumberField
        label="Font size"
        id="opt-mark-size"
        hint="4 to 400 pt"
        bounds={bounds.font_size}
        value={mark.font_size}
        placeholder={WATERMARK_DEFAULTS.font_size}
        onChange={(next) => setMark({ font_size: next })}
      />
      <TextField label="Colour" id="opt-mark-color" type="color" value={mark.color ?? WATERMARK_DEFAULTS.color} onChange={(next) => setMark({ color: next })} />
      <SelectField
        label="Position"
        id="opt-mark-position"
        value={mark.position ?? WATERMARK_DEFAULTS.position}
        choices={POSITIONS}
        onChange={(next) => setMark({ position: next as WatermarkPosition })}
      />
      <TextField
        label="Watermark pages"
        id="opt-mark-pages"
        hint="e.g. 1-3, 5"
        value={mark.pages ?? ''}
        placeholder="all pages"
        onChange={(next) => setMark({ pages: next })}
      />
      <SelectField
        label="Layer"
        id="opt-mark-layer"
        value={mark.layer ?? WATERMARK_DEFAULTS.layer}
        choices={['over', 'under']}
        onChange={(next) => setMark({ layer: next as 'over' | 'under' })}
      />

      <h3 className="options-heading">Encryption (AES-256)</h3>
      <TextField
        label="Owner password"
        id="opt-lock-owner"
        hint="Turns encryption on"
        type="password"
        autoComplete="new-password"
        value={lock.owner_password ?? ''}
        onChange={(next) => setLock({ owner_password: next })}
      />
      <TextField
        label="User password"
        id="opt-lock-user"
        hint="Needed to open; empty: none"
        type="password"
        autoComplete="new-password"
        value={lock.user_password ?? ''}
        onChange={(next) => setLock({ user_password: next })}
      />
      <SelectField
        label="Printing"
        id="opt-lock-print"
        value={permissions.print ?? 'high'}
        choices={['high', 'low', 'none']}
        onChange={(next) => setPermission({ print: next as 'none' | 'low' | 'high' })}
      />
      <div className="checks">
        <Check label="Allow copying" checked={permissions.copy ?? false} onChange={(checked) => setPermission({ copy: checked })} />
        <Check label="Allow changes" checked={permissions.modify ?? false} onChange={(checked) => setPermission({ modify: checked })} />
        <Check label="Allow comments" checked={permissions.annotate ?? false} onChange={(checked) => setPermission({ annotate: checked })} />
        <Check label="Allow form filling" checked={permissions.fill_forms ?? false} onChange={(checked) => setPermission({ fill_forms: checked })} />
      </div>
      <AttachmentsForm value={value} onChange={onChange} />
      {signing && (
        <>
          <h3 className="options-heading">Signature (PAdES)</h3>
          <SignField id="opt-sign" value={value.sign} onChange={(next) => onChange({ ...value, sign: next })} />
        </>
      )}
    </div>
  );
}
