// docs/api.md#reading-an-e-invoice: read an e-invoice (an XML, or a hybrid PDF that carries one)
// into its rule report and our JSON, and draw it as a readable PDF. The admin window calls the admin
// twins (/admin/v1/einvoice/..., the admin token); code calls the /v1 ones with a key.

import { call, callJson, filenameOf } from './client.ts';
import { fileToBase64 } from './pdf-tools.ts';

export type RuleSetName = 'en16931' | 'xrechnung' | 'peppol';

/** One finding of a rule: the official id, our sentence, the element at fault. */
export interface RuleFinding {
  id: string;
  detail: string;
  location: string;
}

export interface RuleSetReport {
  fatal: RuleFinding[];
  warnings: RuleFinding[];
  /** The rule set is not complete yet: a clean report is not the official verdict. */
  partial?: true;
}

export interface EInvoiceInspection {
  syntax: 'CII' | 'UBL';
  document: 'Invoice' | 'CreditNote';
  specification_id: string | null;
  profile: string | null;
  rule_set: RuleSetName;
  valid: boolean;
  rule_sets: Record<RuleSetName, RuleSetReport>;
  /** Where the XML came from: a PDF's attachment (absent for an XML upload). */
  /** What was sent: the XML itself, or a PDF whose attachment was read. */
  source?: { kind: 'xml'; attachment?: undefined } | { kind: 'pdf'; attachment: string };
  /** The EN 16931 model read from the XML, as our JSON (keys in snake_case). */
  invoice: Record<string, unknown>;
}

export const RULE_SET_LABELS: Record<RuleSetName, string> = { en16931: 'EN 16931', xrechnung: 'XRechnung', peppol: 'Peppol BIS 3.0' };

export interface RenderOptions {
  template_id?: string;
  pdf_a?: 'PDF/A-3b';
  attach_xml?: boolean;
}

export interface RenderedInvoice {
  bytes: Uint8Array;
  filename: string;
  /** The X-E-Invoice-Report header as sent ("rules=en16931; fatal=0; warnings=2"), when sent. */
  report: string | null;
}

/** A PDF by its first bytes (%PDF-) or its type: the API is told which it is given. */
async function isPdf(file: File): Promise<boolean> {
  if (file.type === 'application/pdf') return true;
  const head = new Uint8Array(await file.slice(0, 5).arrayBuffer());
  return String.fromCharCode(...head) === '%PDF-';
}

/** The file as the body, typed as what it is: an e-invoice XML or a hybrid PDF. */
async function asBody(file: File): Promise<Blob> {
  return new Blob([file], { type: (await isPdf(file)) ? 'application/pdf' : 'application/xml' });
}

export async function inspectEInvoice(file: File, signal?: AbortSignal): Promise<EInvoiceInspection> {
  return callJson<EInvoiceInspection>('POST', '/admin/v1/einvoice/inspect', { admin: true, file: await asBody(file), signal });
}

/** The invoice drawn as a readable PDF (docs/api.md#reading-an-e-invoice), sent as JSON so options can ride along. */
export async function renderEInvoice(file: File, options: RenderOptions = {}): Promise<RenderedInvoice> {
  const body = await asBody(file);
  const text = body.type === 'application/pdf' ? { pdf: await fileToBase64(file) } : { xml: await file.text() };
  const response = await call('POST', '/admin/v1/einvoice/render', { admin: true, body: { ...text, options } });
  return {
    bytes: new Uint8Array(await response.arrayBuffer()),
    filename: filenameOf(response.headers) ?? `${file.name.replace(/\.(xml|pdf)$/i, '')}-readable.pdf`,
    report: response.headers.get('X-E-Invoice-Report'),
  };
}
