// The one mapping from the lower layers' own errors to the contract's codes (docs/api.md#errors):
// a render timeout, a failed navigation, a full pool, a blocked address, a reached quota, a full
// or damaged store. HTTP answers (http/error-handler.ts, which adds what only a request body can
// fail on), batch items, webhook payloads and hot-folder results all describe errors through it.

import { ApiError, type ErrorCode } from '../errors.ts';
import {
  NavigationError,
  PageCrashedError,
  RenderInputError,
  RenderTimeoutError,
  RendererBusyError,
  RendererClosedError,
  RendererCrashedError,
} from '../render/errors.ts';
import { BlockedUrlError } from '../guard/url-check.ts';
import { DrawingsTooLargeError, ElementInvalidError } from '../render/quire-elements/errors.ts';
import { OfficeConversionError, OfficeCrashedError, OfficeTimeoutError, OfficeUnavailableError } from '../office/errors.ts';
import { OFFICE_INSTALL_HINT } from '../office/office-install.ts';
import { ConformanceFailedError } from '../pdf/conformance.ts';
import { QuotaExceededError, nextMonthStart } from '../accounts/usage.ts';
import { StorageFullError, StoreReadError } from '../stores/durable-file.ts';
import { isDatabaseFull } from '../stores/pg/database.ts';
import type { ErrorRecord } from '../stores/batch-store.ts';
import { usageHeaders } from './usage-headers.ts';
import { SignInputError, TimestampUnavailableError } from '../signing/errors.ts';
import { NotAnInvoiceError, XmlRefusedError } from '../einvoice/read/read-invoice.ts';
import { MakeInputError } from '../einvoice/make/make-einvoice.ts';
import { EInvoiceInvalidError, reportHeader, RuleCheckLostError } from '../einvoice/check/rule-report.ts';
import { PaymentDataError } from '../payments/errors.ts';
import { FinishInputError, PdfInputError, type PdfInputProblem, PdfStepError, PdfToolMissingError, PdfToolTimeoutError } from '../pdf/pdf-errors.ts';

/** Maps any thrown value to an ApiError: known errors to their code, anything else to internal_error. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof RendererBusyError) {
    return new ApiError('renderer_busy', 'The renderer is at capacity; retry shortly.', { 'Retry-After': String(error.retryAfterSeconds) });
  }
  if (error instanceof RendererCrashedError || error instanceof RendererClosedError) {
    return new ApiError('renderer_busy', 'The renderer restarted during this render; retry.', { 'Retry-After': '1' });
  }
  if (error instanceof PageCrashedError) {
    return new ApiError(
      'page_crashed',
      'The page crashed the browser’s renderer twice, each time on a fresh page: its content makes it crash, so it was not charged and a retry would crash again.',
    );
  }
  if (error instanceof RenderTimeoutError) {
    return new ApiError('render_timeout', `The render did not finish within options.timeout_ms (${error.timeoutMs} ms) while ${error.stage}.`);
  }
  const office = officeApiError(error);
  if (office) return office;
  const pdf = pdfApiError(error);
  if (pdf) return pdf;
  const einvoice = einvoiceApiError(error);
  if (einvoice) return einvoice;
  if (error instanceof ElementInvalidError)
    return new ApiError('element_invalid', error.message, {}, { element: error.element, line: error.line, attribute: error.attribute });
  if (error instanceof DrawingsTooLargeError) return new ApiError('payload_too_large', error.message);
  if (error instanceof NavigationError) return new ApiError('navigation_failed', `The url could not be loaded: ${error.message}.`);
  if (error instanceof RenderInputError || error instanceof FinishInputError) return new ApiError('invalid_request', error.message);
  if (error instanceof SignInputError) return new ApiError('invalid_request', `${error.field}: ${error.message}.`);
  // Payment data a bank would refuse: the message already starts with the attribute it names.
  if (error instanceof PaymentDataError) return new ApiError('invalid_request', error.message);
  // The signature was not made, so the render was not kept or charged; the TSA is the operator's to look at.
  if (error instanceof TimestampUnavailableError)
    return new ApiError('timestamp_unavailable', `The signature needs a timestamp and ${error.message}; nothing was charged, retry later.`, {
      'Retry-After': '5',
    });
  if (error instanceof ConformanceFailedError)
    return new ApiError('conformance_failed', `${sentence(error.message)} It was not returned or charged (docs/api.md#pdfa).`);
  if (error instanceof QuotaExceededError) {
    const { usage } = error;
    return new ApiError(
      'quota_exceeded',
      `The ${usage.planId} plan's allowance of ${usage.limit} documents a month is used up for ${usage.month}; it renews on ${nextMonthStart(usage.month)} (UTC).`,
      usageHeaders(usage),
    );
  }
  // A transaction that hit a full disk rolled back whole, so nothing of the call was kept there either.
  if (error instanceof StorageFullError || isDatabaseFull(error)) {
    return new ApiError('insufficient_storage', 'The server’s disk is full, so nothing of this call was kept; retry once the operator has freed space.');
  }
  // The log names the file; the caller learns that it is the server's problem, not the request's.
  if (error instanceof StoreReadError)
    return new ApiError('internal_error', 'A stored record this call needs is damaged; the server’s operator has been told.');
  // Security refusals stay generic for the caller; the log has the reason.
  if (error instanceof BlockedUrlError) return new ApiError('url_blocked', 'The url is not allowed: it must be a public http(s) address.');
  return new ApiError('internal_error', 'Something went wrong on our side; the error has been logged.');
}

/** docs/api.md#office-documents: what went wrong with an office file, or with LibreOffice under it. */
function officeApiError(error: unknown): ApiError | undefined {
  if (error instanceof OfficeConversionError) {
    const code = (
      {
        unsupported_file_type: 'unsupported_file_type',
        too_large: 'payload_too_large',
        password_required: 'password_required',
        password_incorrect: 'password_incorrect',
        conversion_failed: 'office_conversion_failed',
        page_range: 'invalid_request',
      } as const
    )[error.code];
    return new ApiError(code, sentence(error.message));
  }
  if (error instanceof OfficeTimeoutError)
    return new ApiError(
      'render_timeout',
      `LibreOffice did not finish converting the file within options.timeout_ms (${error.timeoutMs} ms); its process was restarted.`,
    );
  // A crash under one document is most likely that document's doing; others keep converting.
  if (error instanceof OfficeCrashedError)
    return new ApiError('office_conversion_failed', 'LibreOffice stopped while converting the file (it may be damaged); its process was restarted.');
  if (error instanceof OfficeUnavailableError)
    return new ApiError('office_unavailable', `Office conversion is not available on this server: ${error.message}. ${OFFICE_INSTALL_HINT}`);
  return undefined;
}

/**
 * docs/api.md#errors: 400 is for a request that is malformed as sent (JSON, a field's type, base64);
 * bytes that decode but are not a usable file (not a PDF, truncated, damaged) are 422, like an office file's.
 */
const PDF_INPUT_CODES: Record<PdfInputProblem, ErrorCode> = {
  password_required: 'password_required',
  password_incorrect: 'password_incorrect',
  unreadable: 'pdf_unreadable',
  too_large: 'payload_too_large',
  not_pdf: 'pdf_unreadable',
};

/** docs/api.md#pdf-inputs: a PDF a user gave that is refused, a step it cannot take, a PDF tool that failed. */
function pdfApiError(error: unknown): ApiError | undefined {
  if (error instanceof PdfInputError) return new ApiError(PDF_INPUT_CODES[error.problem], fieldSentence(error.message));
  if (error instanceof PdfStepError) return new ApiError('invalid_request', fieldSentence(error.message));
  if (error instanceof PdfToolTimeoutError)
    return new ApiError('render_timeout', `The PDF work did not finish within ${error.timeoutMs} ms (${error.tool}); nothing was charged.`);
  if (error instanceof PdfToolMissingError)
    return new ApiError('pdf_tool_unavailable', `This server cannot do that: ${error.message} (npm run setup installs it).`);
  return undefined;
}

/** docs/api.md#reading-an-e-invoice: an e-invoice XML we will not read (too large, a DTD, not well-formed, not an invoice). */
function einvoiceApiError(error: unknown): ApiError | undefined {
  if (error instanceof EInvoiceInvalidError)
    return new ApiError(
      'einvoice_invalid',
      `${sentence(error.message)} Nothing was charged; rules lists each finding.`,
      { 'X-E-Invoice-Report': reportHeader(error.report) },
      {
        rule_set: error.report.rules,
        rules: error.report.fatal,
        warnings: error.report.warnings,
      },
    );
  if (error instanceof RuleCheckLostError) {
    if (error.why === 'timeout') return new ApiError('render_timeout', `${sentence(error.message)} Nothing was charged.`);
    // Like a LibreOffice crash: most likely the document's doing (too large or deep to read); the thread is replaced.
    return new ApiError('einvoice_unreadable', `${sentence(error.message)} Nothing was charged.`);
  }
  if (error instanceof XmlRefusedError)
    return new ApiError(error.reason === 'too_large' ? 'payload_too_large' : 'einvoice_unreadable', sentence(error.message));
  if (error instanceof NotAnInvoiceError) return new ApiError('einvoice_unreadable', sentence(error.message));
  // docs/api.md#making-an-e-invoice: the JSON names fields the format cannot take (our rules refusing the XML made is EInvoiceInvalidError above).
  if (error instanceof MakeInputError) return new ApiError('invalid_request', fieldSentence(error.message));
  return undefined;
}

/** A detail that opens with a field name (pdf, steps[2].pages), kept as it is spelled: only the full stop is added. */
function fieldSentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return `${trimmed[0]?.toUpperCase() ?? ''}${trimmed.slice(1)}${/[.!?]$/.test(trimmed) ? '' : '.'}`;
}

/** The `{code, detail}` of any thrown value, as background work records it. */
export function describeError(error: unknown): ErrorRecord {
  const { code, detail } = toApiError(error);
  return { code, detail };
}
