// The post-processing options as a form: metadata, outline, watermark (text or a PNG/JPEG file)
// and AES-256 encryption with its permissions. Empty fields are left out of the request.

import type { PdfEncryption, PdfMetadata, PdfOptions, PdfWatermark, WatermarkPosition } from '../api/types.ts';
import type { OptionSpec } from '../lib/pdf-options.ts';
import { Check, Field } from './OptionsForm.tsx';

export function DocumentOptionsForm({ value, onChange, spec }: { value: PdfOptions; onChange: (next: PdfOptions) => void; spec: OptionSpec }) {
  const { defaults: WATERMARK_DEFAULTS, bounds, positions: POSITIONS } = spec.watermark;
  const metadata = value.metadata ?? {};
  const mark = value.watermark ?? {};
  const lock = value.encrypt ?? {};
  const permissions = lock.permissions ?? {};
  const setMeta = (field: Partial<PdfMetadata>) => onChange({ ...value, metadata: { ...metadata, ...field } });
  const setMark = (field: Partial<PdfWatermark>) => onChange({ ...value, watermark: { ...mark, ...field } });
  const setLock = (field: Partial<PdfEncryption>) => onChange({ ...value, encrypt: { ...lock, ...field } });
  const setPermission = (field: NonNullable<PdfEncryption['permissions']>) => setLock({ permissions: { ...permissions, ...field } });
  const number = (raw: string) => (raw === '' ? undefined : Number(raw));
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
      <Field label="Opacity" id="opt-mark-opacity" hint="0 to 1">
        <input
          id="opt-mark-opacity"
          className="input"
          type="number"
          min={bounds.opacity.min}
          max={bounds.opacity.max}
          step={bounds.opacity.step}
          value={mark.opacity ?? ''}
          placeholder={String(WATERMARK_DEFAULTS.opacity)}
          onChange={(event) => setMark({ opacity: number(event.target.value) })}
        />
      </Field>
      <Field label="Rotation" id="opt-mark-rotate" hint="Degrees">
        <input
          id="opt-mark-rotate"
          className="input"
          type="number"
          min={bounds.rotate.min}
          max={bounds.rotate.max}
          value={mark.rotate ?? ''}
          placeholder={String(WATERMARK_DEFAULTS.rotate)}
          onChange={(event) => setMark({ rotate: number(event.target.value) })}
        />
      </Field>
      <Field label="Font size" id="opt-mark-size" hint="4 to 400 pt">
        <input
          id="opt-mark-size"
          className="input"
          type="number"
          min={bounds.font_size.min}
          max={bounds.font_size.max}
          value={mark.font_size ?? ''}
          placeholder={String(WATERMARK_DEFAULTS.font_size)}
          onChange={(event) => setMark({ font_size: number(event.target.value) })}
        />
      </Field>
      <Field label="Colour" id="opt-mark-color">
        <input
          id="opt-mark-color"
          className="input"
          type="color"
          value={mark.color ?? WATERMARK_DEFAULTS.color}
          onChange={(event) => setMark({ color: event.target.value })}
        />
      </Field>
      <Field label="Position" id="opt-mark-position">
        <select
          id="opt-mark-position"
          className="select"
          value={mark.position ?? WATERMARK_DEFAULTS.position}
          onChange={(event) => setMark({ position: event.target.value as WatermarkPosition })}
        >
          {POSITIONS.map((position) => (
            <option key={position}>{position}</option>
          ))}
        </select>
      </Field>
      <Field label="Watermark pages" id="opt-mark-pages" hint="e.g. 1-3, 5">
        <input
          id="opt-mark-pages"
          className="input"
          value={mark.pages ?? ''}
          placeholder="all pages"
          onChange={(event) => setMark({ pages: event.target.value })}
        />
      </Field>
      <Field label="Layer" id="opt-mark-layer">
        <select
          id="opt-mark-layer"
          className="select"
          value={mark.layer ?? WATERMARK_DEFAULTS.layer}
          onChange={(event) => setMark({ layer: event.target.value as 'over' | 'under' })}
        >
          <option>over</option>
          <option>under</option>
        </select>
      </Field>

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
    </div>
  );
}
