// The EPC QR code ("GiroCode", EPC069-12 v3.1): a SEPA credit transfer a banking app reads. The
// payload is twelve lines in a fixed order, LF between them and none after the last populated one,
// at most 331 bytes; the QR code uses error correction M and at most version 13. Every value is
// checked first, and a refusal names its attribute (PaymentDataError).

import { centsText, parseAmount } from './amount.ts';
import { PaymentDataError } from './errors.ts';
import { checkIban, groupedIban } from './iban.ts';
import { escapeXml, qrSvg, withAttributes } from './qr-svg.ts';
import { checkCreditorReference } from './references.ts';

/** The attributes of an EPC QR code, as an element or a template gives them (all text). */
export interface EpcQrAttributes {
  name?: string;
  iban?: string;
  bic?: string;
  /** Euros, 0.01 to 999999999.99, at most two decimals; left out, the payer types it. */
  amount?: string;
  /** An ISO 11649 creditor reference (RF...); not with `text`. */
  reference?: string;
  /** Unstructured remittance information, at most 140 characters; not with `reference`. */
  text?: string;
  /** An ISO 20022 purpose code (4 letters or digits), as CHAR or GDDS. */
  purpose?: string;
  /** A note to the payer (beneficiary to originator information), at most 70 characters. */
  information?: string;
  /** 002 (default: the BIC is optional) or 001 (the BIC is required). */
  version?: string;
  /** The printed size, a CSS length (default 40mm; EPC asks for at least 2 cm). */
  size?: string;
}

const MAX_BYTES = 331;

/** The EPC069-12 payload of a SEPA credit transfer, after every value is checked. */
export function epcPayload(attributes: EpcQrAttributes): string {
  const version = attributes.version?.trim() || '002';
  if (version !== '001' && version !== '002') throw new PaymentDataError('version', `"${attributes.version}" is not an EPC QR version: 001 or 002.`);
  const bic = optional(attributes, 'bic');
  if (bic !== undefined && !/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic.toUpperCase()))
    throw new PaymentDataError(
      'bic',
      `"${bic}" is not a BIC: 4 letters (the bank), 2 (its country), 2 letters or digits (its place), and maybe 3 more (a branch).`,
    );
  if (bic === undefined && version === '001') throw new PaymentDataError('bic', 'version 001 needs the BIC; leave version out (002) to make it optional.');
  const name = optional(attributes, 'name', 70);
  if (name === undefined) throw new PaymentDataError('name', 'the beneficiary’s name is required.');
  const iban = checkIban(attributes.iban ?? '', 'iban');
  const amount = optional(attributes, 'amount');
  const purpose = optional(attributes, 'purpose');
  if (purpose !== undefined && !/^[A-Z0-9]{4}$/.test(purpose))
    throw new PaymentDataError('purpose', `"${purpose}" is not a purpose code: 4 capital letters or digits, as CHAR.`);
  const reference = optional(attributes, 'reference');
  const text = optional(attributes, 'text', 140);
  if (reference !== undefined && text !== undefined)
    throw new PaymentDataError('reference', 'give either a creditor reference or a text, not both: the code carries one of them.');
  const lines = [
    'BCD',
    version,
    '1', // UTF-8
    'SCT',
    bic?.toUpperCase() ?? '',
    name,
    iban,
    amount === undefined ? '' : `EUR${epcAmount(parseAmount(amount, 'amount'))}`,
    purpose ?? '',
    reference === undefined ? '' : checkCreditorReference(reference, 'reference'),
    text ?? '',
    optional(attributes, 'information', 70) ?? '',
  ];
  // The last populated element is followed by nothing: no separator, no empty lines.
  while (lines.at(-1) === '') lines.pop();
  const payload = lines.join('\n');
  const bytes = Buffer.byteLength(payload, 'utf8');
  if (bytes > MAX_BYTES)
    throw new PaymentDataError('text', `the code would carry ${bytes} bytes; EPC069-12 allows ${MAX_BYTES}: shorten the name or the text.`);
  return payload;
}

/** The EPC QR code as an SVG element, 40 mm square unless `size` says otherwise, with a quiet zone of 4 modules. */
export async function epcQrSvg(attributes: Record<string, string>): Promise<string> {
  return drawEpcQr(attributes);
}

/** epcQrSvg for callers that draw while expanding a template (synchronous: bwip-js is). */
export function drawEpcQr(attributes: EpcQrAttributes): string {
  const payload = epcPayload(attributes);
  const size = attributes.size?.trim() || '40mm';
  if (!/^\d+(\.\d+)?(mm|cm|in|pt|px)$/.test(size)) throw new PaymentDataError('size', `"${size}" is not a length: a number and mm, cm, in, pt or px.`);
  const { svg } = qrSvg(payload, 4, { maxVersion: 13, field: 'text' });
  const [, , , , , beneficiary, iban, amount] = payload.split('\n');
  const label = `EPC QR code (GiroCode): pay ${amount ? `${amount.slice(3)} EUR ` : ''}to ${beneficiary}, ${groupedIban(iban!)}`;
  return withAttributes(svg, { width: size, height: size, role: 'img', 'aria-label': label }).replace(/>/, `><title>${escapeXml(label)}</title>`);
}

/** Euros as EPC069-12's example writes them: no trailing zeros after the point ("EUR1", "EUR12.5"). */
function epcAmount(cents: number): string {
  return centsText(cents).replace(/\.?0+$/, '');
}

/** A trimmed value, undefined when empty; refused when it holds a line break (it would shift every line after it) or is too long. */
function optional(attributes: EpcQrAttributes, field: keyof EpcQrAttributes, maxLength?: number): string | undefined {
  const value = attributes[field]?.trim();
  if (!value) return undefined;
  if (/[\r\n]/.test(value)) throw new PaymentDataError(field, 'a line break would end the field early: give it on one line.');
  if (maxLength !== undefined && [...value].length > maxLength)
    throw new PaymentDataError(field, `${[...value].length} characters; EPC069-12 allows at most ${maxLength}.`);
  return value;
}
