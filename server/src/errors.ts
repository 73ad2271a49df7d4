// The API error type and the contract's code list (docs/api.md#errors).
// Lower layers throw their own errors with no HTTP meaning; wire/error-mapping.ts maps them
// here once. Routes and services may throw ApiError directly for request-level refusals.

export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  url_blocked: 400,
  conflicting_source: 400,
  // Office conversions (docs/api.md#office-documents): a file name we do not convert.
  unsupported_file_type: 400,
  // Not in the original code list (issue 41): an e-invoice (made by POST /v1/einvoice, or a render's
  // options.e_invoice) fails a fatal EN 16931, XRechnung or Peppol rule; the body's `rules` lists each
  // fatal {id, detail, location}, `warnings` the rest, `rule_set` the set that ran.
  einvoice_invalid: 400,
  // Not in the original code list (issue 43): a <quire-barcode> or <quire-chart> of the document that
  // cannot be drawn (an EAN-13 with a letter, a bad check digit, a chart option that is not JSON); the
  // body adds `element`, `line` and `attribute`; nothing was charged.
  element_invalid: 400,
  unauthorized: 401,
  quota_exceeded: 402,
  plan_required: 403,
  forbidden: 403,
  template_not_found: 404,
  document_not_found: 404,
  batch_not_found: 404,
  // Not in the original code list (issue 25): a render receipt that is unknown, expired or another key's.
  receipt_not_found: 404,
  // Not in the original code list (issue 33): a transform preset that is unknown or another key's.
  preset_not_found: 404,
  not_found: 404,
  // Signing (issue 32): a certificate id that is unknown or not granted to the key.
  certificate_not_found: 404,
  // Not in the code list the API was designed with (docs/api.md#errors): a known path called with the wrong method.
  method_not_allowed: 405,
  document_expired: 410,
  payload_too_large: 413,
  storage_unavailable: 422,
  navigation_failed: 422,
  batch_too_large: 422,
  // Not in the original code list (issue 22): the page crashed the browser's renderer on two fresh
  // pages; its content does it, so a retry would crash again.
  page_crashed: 422,
  // Office conversions: a protected file without (or with the wrong) password, or one LibreOffice cannot read.
  password_required: 422,
  password_incorrect: 422,
  office_conversion_failed: 422,
  // Signing: the certificate is outside its validity period (expired or not yet valid).
  certificate_not_valid: 422,
  // Signing import: a PKCS#12 or PEM that does not read, a wrong password, a key that does not match.
  certificate_invalid: 422,
  // PDF inputs (docs/api.md#pdf-inputs, issue 33): a PDF damaged beyond what qpdf can repair.
  pdf_unreadable: 422,
  // Not in the original code list (issue 31): a PDF/A result failed a rule of its level; uncharged.
  conformance_failed: 422,
  // Not in the original code list (issue 42): a PDF/UA-1 result failed a Matterhorn condition the fixer
  // could not fix; the body's `failed` lists each {condition, page, detail}; uncharged.
  accessibility_failed: 422,
  // Not in the original code list (issue 41): an e-invoice XML that is not well-formed, carries a
  // DOCTYPE, or whose root is not a CII or UBL invoice: the request was sent right, the file is unreadable.
  einvoice_unreadable: 422,
  rate_limited: 429,
  // Not in the original code list (issue 11): a key's background batch backlog is full.
  too_many_batches: 429,
  internal_error: 500,
  // This server has no LibreOffice: the detail says how to install it.
  office_unavailable: 501,
  // This server lacks a PDF tool a step needs (qpdf, Ghostscript): the detail names it.
  pdf_tool_unavailable: 501,
  renderer_busy: 503,
  // Signing level B-T: the time-stamping authority did not answer in TSA_TIMEOUT_MS or refused.
  timestamp_unavailable: 503,
  render_timeout: 504,
  // Not in the original code list: the data folder's disk is full; nothing of the call was kept.
  insufficient_storage: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class ApiError extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    headers: Record<string, string> = {},
    /** Fields the body carries after detail and code (einvoice_invalid's `rule_set`, `rules`, `warnings`). */
    readonly body: Readonly<Record<string, unknown>> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
    this.headers = headers;
  }
}
