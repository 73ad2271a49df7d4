// The payment codes by the name an element or template helper asks for them with, each a function
// from the element's attributes (all text) to an SVG element: the registry of server-side drawn
// elements takes them as they are. A refusal is a PaymentDataError naming the attribute.

import { epcQrSvg } from './epc-qr.ts';
import { swissQrBillSvg } from './swiss-qr-bill-svg.ts';

export type PaymentCodeDrawer = (attributes: Record<string, string>) => Promise<string>;

/** `epc-qr`: the EPC QR code (GiroCode); `swiss-qr-bill`: the QR-bill's payment part with its receipt. */
export const PAYMENT_CODES: Readonly<Record<string, PaymentCodeDrawer>> = {
  'epc-qr': epcQrSvg,
  'swiss-qr-bill': swissQrBillSvg,
};

export { epcPayload, epcQrSvg } from './epc-qr.ts';
export { PaymentDataError } from './errors.ts';
export { swissQrBillSvg } from './swiss-qr-bill-svg.ts';
export { swissQrBillFrom, swissQrPayload } from './swiss-qr-payload.ts';
