// docs/api.md#reading-an-e-invoice: read an e-invoice (an XML, or a hybrid PDF that carries one)
// into its rule report and our JSON, and draw it as a readable PDF. The admin window calls the admin
// twins (/admin/v1/einvoice/..., the admin token); code calls the /v1 ones with a key.

import type { RuleFinding, RuleSetName, RuleSetReport, SourcedInspection as EInvoiceInspection } from '../../../server/src/shapes/einvoice-inspection-json.ts';
import { call, callJson, filenameOf } from './client.ts';
import { fileToBase64 } from './pdf-tools.ts';

// The inspection's shape is the server's own (server/src/shapes/einvoice-inspection-json.ts); the
// endpoints the window calls always say where the XML was read from.
export type { EInvoiceInspection, RuleFinding, RuleSetName, RuleSetReport };

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
