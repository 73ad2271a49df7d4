// The EPC QR code (GiroCode) an e-invoice's readable view shows when it asks for a SEPA credit
// transfer (BT-81 code 58, or 30 with an IBAN) in euros: to the payee (BT-59, else the seller,
// BT-27), the IBAN and BIC (BT-84, BT-86), the amount due (BT-115) and the remittance information
// (BT-83: an RF creditor reference as such, other text as text). Data a bank would refuse gives a note instead.

import { drawEpcQr, type EpcQrAttributes } from '../../payments/epc-qr.ts';
import { PaymentDataError } from '../../payments/errors.ts';

/** What the view prints: the code and what it pays, or why there is none. */
export interface ViewPaymentCode {
  svg?: string;
  note?: string;
  /** The values the code carries, printed beside it so a reader can compare. */
  name?: string;
  iban?: string;
  amount?: string;
  reference?: string;
}

/** The view's GiroCode for an inspected invoice (snake_case JSON), or undefined when it asks for no credit transfer. */
export function einvoicePaymentCode(invoice: Record<string, unknown>): ViewPaymentCode | undefined {
  const means = list(invoice.payment_means).find((entry) => list(entry.credit_transfers).some((transfer) => isSepaTransfer(entry, transfer)));
  if (!means) return undefined;
  const transfer = list(means.credit_transfers).find((candidate) => isSepaTransfer(means, candidate))!;
  // BT-115 is plain text, or {value, currency} when the XML states its currency.
  const payable = record(invoice.totals).payable;
  const currency = textOf(record(payable).currency) ?? textOf(invoice.currency);
  if (currency !== 'EUR') return { note: `No EPC QR code: it pays euros only, and this invoice is due in ${currency ?? 'an unstated currency'}.` };
  const amount = textOf(payable);
  if (amount === undefined || !(Number(amount) > 0)) return { note: 'No EPC QR code: nothing is due for payment (BT-115).' };
  const remittance = textOf(means.remittance_information);
  const attributes: EpcQrAttributes = {
    name: textOf(record(invoice.payee).name) ?? textOf(record(invoice.seller).name),
    iban: textOf(transfer.account_id),
    bic: textOf(transfer.service_provider_id),
    amount: Number(amount).toFixed(2),
    ...(remittance && /^RF\d\d/i.test(remittance.replace(/\s+/g, '')) ? { reference: remittance } : { text: remittance }),
    size: '32mm',
  };
  try {
    const svg = drawEpcQr(attributes);
    return { svg, name: attributes.name, iban: textOf(transfer.account_id), amount: attributes.amount, reference: remittance };
  } catch (error) {
    if (error instanceof PaymentDataError) return { note: `No EPC QR code: ${error.message}` };
    throw error;
  }
}

/** SEPA credit transfer (58) to an account; "credit transfer" (30) too when the account is written as an IBAN. */
function isSepaTransfer(means: Record<string, unknown>, transfer: Record<string, unknown>): boolean {
  const code = textOf(means.type_code);
  const account = textOf(transfer.account_id);
  if (account === undefined) return false;
  return code === '58' || (code === '30' && /^[A-Z]{2}\d{2}[A-Z0-9 ]+$/.test(account));
}

/** A value of the JSON invoice as text: a plain string, or the value of one with attributes (currency, scheme). */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'string') return (value as { value: string }).value;
  return undefined;
}

function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((entry) => entry && typeof entry === 'object') : [];
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}
