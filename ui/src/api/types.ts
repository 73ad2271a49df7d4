// Wire shapes of docs/api.md (in full: GET /openapi.json), as the server sends them (snake_case).

export interface Usage {
  month: string;
  /** null when the key's usage file on the server is damaged (its calls fail until repaired). */
  used: number | null;
  limit: number;
}

export interface KeyRecord {
  id: string;
  name: string;
  plan: string;
  auto_store: boolean;
  /** Which renders keep a receipt: stored (default), all, off. */
  receipts?: 'stored' | 'all' | 'off';
  created_at: string;
  usage: Usage;
}

export interface IssuedKey extends Omit<KeyRecord, 'usage'> {
  key: string;
}

export interface Plan {
  id: string;
  name: string;
  monthly_documents: number;
  retention: string | number;
  batch_max_items: number;
  /** Renders one key of this plan may have in flight. */
  concurrency: number;
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface TemplateSummary {
  template_id: string;
  key_id: string;
  name: string;
  format: TemplateFormat;
  created_at: string;
  updated_at: string;
  /** In lists: the current version's number and how many assets the template has. */
  version?: number;
  asset_count?: number;
}

/** How a template's text is read. */
export type TemplateFormat = 'html' | 'markdown' | 'docx';

export interface Template extends TemplateSummary {
  /** HTML and Markdown templates' text. */
  html?: string;
  /** A Word template's docx, base64, with its tags as a tree and its sample data's lint. */
  file?: string;
  placeholders?: WordPlaceholder[];
  data_lint?: { missing: string[]; unused: string[] };
  sample_data: Record<string, unknown> | null;
}

/** A tag of a Word template: a value or a section (loop or condition) with what is inside it. */
export interface WordPlaceholder {
  name: string;
  kind: 'value' | 'section';
  children?: WordPlaceholder[];
}

export interface StoredDocument {
  id: string;
  key_id: string;
  filename: string | null;
  size: number;
  /** null for documents kept before the count was recorded (or a file it could not read). */
  pages: number | null;
  created_at: string;
  expires_at: string;
  /** What made it (docs/api.md#stored-documents); a value this screen does not know reads as a render. */
  source: 'render' | 'batch' | 'office' | 'merge' | 'transform';
  batch_id?: string;
}

export type BatchItemStatus = 'queued' | 'rendering' | 'succeeded' | 'failed';
export type BatchStatus = 'queued' | 'processing' | 'completed';

export interface BatchResult {
  index: number;
  status: BatchItemStatus;
  document_id?: string;
  filename?: string;
  error?: { code: string; detail: string };
}

/** A webhook delivery attempt; the fields beyond these are shown as they come. */
export interface WebhookAttempt {
  attempt?: number;
  at?: string;
  attempted_at?: string;
  status?: number | string | null;
  status_code?: number | null;
  ok?: boolean;
  error?: string | { code?: string; detail?: string } | null;
  next_attempt_at?: string | null;
  [field: string]: unknown;
}

export interface Batch {
  batch_id: string;
  key_id?: string;
  status: BatchStatus;
  total: number;
  succeeded?: number;
  failed?: number;
  created_at?: string;
  completed_at?: string | null;
  webhook_url?: string | null;
  results?: BatchResult[];
  deliveries?: WebhookAttempt[];
  webhook_deliveries?: WebhookAttempt[];
  webhook?: { url?: string; attempts?: WebhookAttempt[] } | null;
}

export type PdfFormat = 'A4' | 'A3' | 'A5' | 'Letter' | 'Legal' | 'Tabloid';
export type WaitUntil = 'load' | 'domcontentloaded' | 'networkidle0' | 'networkidle2';

export interface PdfOptions {
  /** Keep a render receipt (docs/api.md#render-receipts). */
  receipt?: boolean;
  /** Markdown sources only: CSS after the default print stylesheet, or instead of it (css_mode replace). */
  css?: string;
  css_mode?: 'extend' | 'replace';
  format?: PdfFormat;
  landscape?: boolean;
  margin?: string;
  print_background?: boolean;
  scale?: number;
  page_ranges?: string;
  prefer_css_page_size?: boolean;
  media?: 'print' | 'screen';
  timeout_ms?: number;
  wait_until?: WaitUntil;
  wait_for?: string;
  wait_ms?: number;
  wait_for_function?: string;
  /** Custom paper (both or neither), instead of format. */
  width?: string;
  height?: string;
  outline?: boolean;
  metadata?: PdfMetadata;
  /** Files embedded as associated files: docs/api.md#attachments. */
  attachments?: PdfAttachment[];
  /** A Factur-X / ZUGFeRD / XRechnung e-invoice: docs/api.md#e-invoices. */
  e_invoice?: PdfEInvoice;
  watermark?: PdfWatermark;
  encrypt?: PdfEncryption;
  /** An archival PDF/A level ("PDF/A-2b"); the choices come from /openapi.json (lib/pdf-options.ts). */
  pdf_a?: string;
  /** An accessible PDF/UA level ("PDF/UA-1"): docs/api.md#pdfua; the choices come from /openapi.json. */
  pdf_ua?: string;
  /** The document language (BCP 47) written as /Lang with pdf_ua; default the page's <html lang>. */
  lang?: string;
  /** Sign the finished PDF (PAdES): docs/api.md#signing-pades. */
  sign?: SignOption;
  /** url renders only: sent to the url's own origin and nowhere else. */
  http_headers?: Record<string, string>;
  cookies?: { name: string; value: string; path?: string; secure?: boolean }[];
  basic_auth?: { username: string; password: string };
  user_agent?: string;
  /** HTML drawn above (below) the body on every page: docs/api.md#headers-and-footers. */
  header?: RunningOption;
  footer?: RunningOption;
}

export type AfRelationship = 'Source' | 'Data' | 'Alternative' | 'Supplement' | 'Unspecified';

export interface PdfAttachment {
  filename: string;
  content?: string;
  document_id?: string;
  mime_type?: string;
  description?: string;
  relationship?: AfRelationship;
}

export type EInvoiceProfile = 'MINIMUM' | 'BASIC WL' | 'BASIC' | 'EN 16931' | 'EXTENDED' | 'XRECHNUNG';

export interface PdfEInvoice {
  profile: EInvoiceProfile;
  /** The syntax written from invoice or from_data: CII (default); UBL for XRECHNUNG only. */
  syntax?: 'CII' | 'UBL';
  xml?: string;
  invoice?: Record<string, unknown>;
  from_data?: true;
}

/** A header or footer: HTML, or HTML with variants per page (false: none on those pages). */
export type RunningOption =
  | string
  | { html?: string; height?: string; first?: string | false | null; last?: string | false | null; odd?: string | false | null; even?: string | false | null };

export interface PdfMetadata {
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string[];
  creator?: string;
}

export type WatermarkPosition = 'center' | 'top-left' | 'top' | 'top-right' | 'left' | 'right' | 'bottom-left' | 'bottom' | 'bottom-right';

export interface PdfWatermark {
  text?: string;
  image?: string;
  opacity?: number;
  rotate?: number;
  font_size?: number;
  color?: string;
  position?: WatermarkPosition;
  pages?: string;
  layer?: 'over' | 'under';
}

export interface PdfEncryption {
  owner_password?: string;
  user_password?: string;
  permissions?: { print?: 'none' | 'low' | 'high'; copy?: boolean; modify?: boolean; annotate?: boolean; fill_forms?: boolean };
}

export interface TemplateAsset {
  name: string;
  content_type: string;
  size: number;
  updated_at: string;
}

export interface TemplateVersionSummary {
  version: number;
  name: string;
  format: TemplateFormat;
  created_at: string;
  created_by: string;
}

export interface TemplateVersion extends TemplateVersionSummary {
  html: string;
  sample_data: Record<string, unknown> | null;
}

export interface VersionDiff {
  version: number;
  current_version: number;
  html_diff: string;
  name_changed: boolean;
  format_changed: boolean;
  sample_data_changed: boolean;
}

export interface CheckResult {
  template_id: string;
  template_version: number;
  pages: number;
  changed_pages: number[];
  max_diff_ratio: number;
  verdict: 'unchanged' | 'changed' | 'reference_created';
}

/** options.sign (docs/api.md#signing-pades); the levels come from /openapi.json (lib/pdf-options.ts). */
export interface SignOption {
  certificate_id: string;
  level?: string;
  reason?: string;
  location?: string;
}
