// Payment codes as <quire-barcode type="epc-qr|swiss-qr-bill" ...>: the element's flat attributes
// (name, iban, amount, ...) go to payments/ as they are, which checks what a bank would refuse and
// draws the code at its own, specified size (the QR-bill's part is 210x105 mm). A refusal there
// names the attribute, so it becomes the element's 400 like any barcode's.

import { PAYMENT_CODES, PaymentDataError } from '../../payments/payment-codes.ts';
import { ElementAttributeError } from './errors.ts';

/** True when `type` names a payment code rather than a plain symbology. */
export function isPaymentCode(type: string | undefined): boolean {
  return type !== undefined && Object.hasOwn(PAYMENT_CODES, type);
}

/** The payment code the element's `type` names, drawn from its other attributes. */
export async function drawPaymentCode(attributes: Record<string, string>): Promise<string> {
  const { type, ...fields } = attributes;
  const draw = PAYMENT_CODES[type ?? '']!;
  try {
    return await draw(fields);
  } catch (error) {
    if (error instanceof PaymentDataError) throw new ElementAttributeError(error.field, error.reason);
    throw error;
  }
}
