// The post-processing options as a form: metadata, outline, the PDF/A level, watermark (text or a
// PNG/JPEG file) and AES-256 encryption with its permissions, then attachments and the e-invoice
// (AttachmentsForm), and in the admin window the signature (SignField). Empty fields are left out
// of the request.

import type { PdfEncryption, PdfMetadata, PdfOptions, PdfWatermark, WatermarkPosition } from '../api/types.ts';
import type { OptionSpec } from '../lib/pdf-options.ts';
import { AttachmentsForm } from './AttachmentsForm.tsx';
import { Check, Field, NumberField, SelectField } from './OptionsForm.tsx';
import { PdfAField } from './PdfAField.tsx';
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
  return (
    <div className="options-grid">
      <h3 className="options-heading">Metadata</h3>
      <Field label="Title" id="opt-meta-title" hint="Default: the page’s <title>">
        <input id="opt-meta-title" className="input" value={metadata.title ?? ''} onChange={(event) => setMeta({ title: event.target.value })} />
      </Field>
      <Field label="Author" id="opt-meta-author">
        <input id="opt-meta-author" className="input" value={metadata.author ?? ''} onChange={(event) => setMeta({ author: event.target.value })} />
      </Field>
      <Field label="Subject" id="opt-meta-subject">
        <input id="opt-meta-subject" className="input" value={metadata.subject ?? ''} onChange={(event) => setMeta({ subject: event.target.value })} />
      </Field>
      <Field label="Keywords" id="opt-meta-keywords" hint="Comma-separated">
        <input
          id="opt-meta-keywords"
          className="input"
          value={(metadata.keywords ?? []).join(', ')}
          onChange={(event) =>
            setMeta({
              keywords: event.target.value
                .split(',')
                .map((word) => word.trim())
                .filter(Boolean),
            })
          }
        />
      </Field>
      <Field label="Creator" id="opt-meta-creator">
        <input id="opt-meta-creator" className="input" value={metadata.creator ?? ''} onChange={(event) => setMeta({ creator: event.target.value })} />
      </Field>
      <div className="checks">
        <Check label="Outline from headings" checked={value.outline ?? false} onChange={(checked) => onChange({ ...value, outline: checked })} />
      </div>

      <h3 className="options-heading">Archive</h3>
      <PdfAField id="opt-pdf-a" value={value.pdf_a} onChange={(next) => onChange({ ...value, pdf_a: next })} />

      <h3 className="options-heading">Watermark</h3>
      <Field label="Watermark text" id="opt-mark-text" hint="Latin text, kept as text">
        <input
          id="opt-mark-text"
          className="input"
          value={mark.text ?? ''}
          placeholder="e.g. DRAFT"
          onChange={(event) => setMark({ text: event.target.value, image: undefined })}
        />
      </Field>
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
      <Field label="Colour" id="opt-mark-color">
        <input
          id="opt-mark-color"
          className="input"
          type="color"
          value={mark.color ?? WATERMARK_DEFAULTS.color}
          onChange={(event) => setMark({ color: event.target.value })}
        />
      </Field>
      <SelectField
        label="Position"
        id="opt-mark-position"
        value={mark.position ?? WATERMARK_DEFAULTS.position}
        choices={POSITIONS}
        onChange={(next) => setMark({ position: next as WatermarkPosition })}
      />
      <Field label="Watermark pages" id="opt-mark-pages" hint="e.g. 1-3, 5">
        <input
          id="opt-mark-pages"
          className="input"
          value={mark.pages ?? ''}
          placeholder="all pages"
          onChange={(event) => setMark({ pages: event.target.value })}
        />
      </Field>
      <SelectField
        label="Layer"
        id="opt-mark-layer"
        value={mark.layer ?? WATERMARK_DEFAULTS.layer}
        choices={['over', 'under']}
        onChange={(next) => setMark({ layer: next as 'over' | 'under' })}
      />

      <h3 className="options-heading">Encryption (AES-256)</h3>
      <Field label="Owner password" id="opt-lock-owner" hint="Turns encryption on">
        <input
          id="opt-lock-owner"
          className="input"
          type="password"
          autoComplete="new-password"
          value={lock.owner_password ?? ''}
          onChange={(event) => setLock({ owner_password: event.target.value })}
        />
      </Field>
      <Field label="User password" id="opt-lock-user" hint="Needed to open; empty: none">
        <input
          id="opt-lock-user"
          className="input"
          type="password"
          autoComplete="new-password"
          value={lock.user_password ?? ''}
          onChange={(event) => setLock({ user_password: event.target.value })}
        />
      </Field>
      <Field label="Printing" id="opt-lock-print">
        <select
          id="opt-lock-print"
          className="select"
          value={permissions.print ?? 'high'}
          onChange={(event) => setPermission({ print: event.target.value as 'none' | 'low' | 'high' })}
        >
          <option value="high">high</option>
          <option value="low">low</option>
          <option value="none">none</option>
        </select>
      </Field>
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
