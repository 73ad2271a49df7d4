// What POST /admin/v1/pdf/inspect found in a PDF, for a person: the facts at a glance, then the
// fonts, images, form fields, attachments, bookmarks and signatures, and the raw JSON.

import type { PdfBookmark, PdfInspection } from '../api/pdf-tools.ts';
import { formatBytes } from '../lib/format.ts';

export function InspectionView({ inspection }: { inspection: PdfInspection }) {
  const first = inspection.pages[0];
  const sizes = new Set(inspection.pages.map((page) => `${page.width} × ${page.height}`));
  const rotated = inspection.pages.filter((page) => page.rotation !== 0);
  const facts: [string, string][] = [
    ['Pages', String(inspection.page_count)],
    [
      'Page size',
      first ? `${first.width} × ${first.height} pt${sizes.size > 1 ? ` (and ${sizes.size - 1} other size${sizes.size > 2 ? 's' : ''})` : ''}` : '—',
    ],
    ['Rotated pages', rotated.length ? rotated.map((page) => `${page.number} (${page.rotation}°)`).join(', ') : 'none'],
    ['PDF version', inspection.version],
    ['Title', inspection.info.Title ?? '—'],
    ['Author', inspection.info.Author ?? '—'],
    ['Producer', inspection.info.Producer ?? '—'],
    ['Tagged', inspection.tagged ? 'yes' : 'no'],
    ['PDF/A claim', inspection.pdf_a ? `PDF/A-${inspection.pdf_a.toUpperCase()}` : 'none'],
    ['Encryption', inspection.encryption ? `${inspection.encryption.method} (${deniedOf(inspection.encryption.permissions)})` : 'none'],
    ['Scripts', inspection.javascript ? 'yes (never run here)' : 'none'],
  ];
  return (
    <div className="inspection" data-testid="inspection">
      <dl className="facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd data-fact={label}>{value}</dd>
          </div>
        ))}
      </dl>
      {/* duplicates: each Section lists a different part of the inspection with its own line; only the list's frame is alike. */}
      <Section title="Fonts" count={inspection.fonts.length}>
        <ul>
          {inspection.fonts.map((font, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a list read once, never reordered
            <li key={`${font.name}-${index}`}>
              {font.name ?? '(unnamed)'} <span className="muted small">{font.type}</span> {font.embedded ? '' : <strong>not embedded</strong>}
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Images" count={inspection.images.length}>
        <ul>
          {inspection.images.slice(0, 200).map((image, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a list read once, never reordered
            <li key={`${image.page}-${index}`}>
              Page {image.page}: {image.width} × {image.height} px at {image.x_dpi} × {image.y_dpi} dpi{' '}
              <span className="muted small">{[image.color_space, image.filter].filter(Boolean).join(', ')}</span>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Form fields" count={inspection.form_fields.length}>
        <ul>
          {inspection.form_fields.map((field) => (
            <li key={field.name}>
              <span className="mono">{field.name}</span> <span className="muted small">{field.type}</span> = {JSON.stringify(field.value)}
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Attachments" count={inspection.attachments.length}>
        <ul>
          {inspection.attachments.map((file, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a list read once, never reordered
            <li key={`${file.name}-${index}`}>
              {file.name}{' '}
              <span className="muted small">
                {[file.mime, file.size === null ? null : formatBytes(file.size), file.relationship].filter(Boolean).join(', ')}
              </span>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Bookmarks" count={countMarks(inspection.bookmarks)}>
        <Marks marks={inspection.bookmarks} />
      </Section>
      <Section title="Signatures" count={inspection.signatures.length}>
        <ul>
          {inspection.signatures.map((signature) => (
            <li key={signature.field}>
              {signature.field}: {signature.signed ? `signed${signature.signer ? ` by ${signature.signer}` : ''}` : 'empty'}{' '}
              <span className="muted small">{signature.sub_filter}</span>
            </li>
          ))}
        </ul>
      </Section>
      <details>
        <summary>JSON</summary>
        <pre className="code-block small">{JSON.stringify(inspection, null, 2)}</pre>
      </details>
    </div>
  );
}

function Section({ title, count, children }: { title: string; count: number; children: React.ReactNode }) {
  if (count === 0) return null;
  return (
    <details className="inspection-section">
      <summary>
        {title} <span className="muted">({count})</span>
      </summary>
      {children}
    </details>
  );
}

function Marks({ marks }: { marks: PdfBookmark[] }) {
  return (
    <ul>
      {marks.map((mark, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a list read once, never reordered
        <li key={`${mark.title}-${index}`}>
          {mark.title} {mark.page !== null && <span className="muted small">p. {mark.page}</span>}
          {mark.children.length > 0 && <Marks marks={mark.children} />}
        </li>
      ))}
    </ul>
  );
}

function countMarks(marks: PdfBookmark[]): number {
  return marks.reduce((sum, mark) => sum + 1 + countMarks(mark.children), 0);
}

function deniedOf(permissions: Record<string, boolean>): string {
  const denied = Object.entries(permissions)
    .filter(([, allowed]) => !allowed)
    .map(([name]) => name.replace(/_/g, ' '));
  return denied.length ? `denies ${denied.join(', ')}` : 'everything allowed';
}
