// The Swiss QR-bill's payment part drawn as one SVG of 210 x 105 mm (style guide of the
// Implementation Guidelines v2.3): the receipt (62 mm) and the payment part, their titles, the
// QR code of 46 x 46 mm with the Swiss cross of 7 x 7 mm in its middle, the amount, and corner
// marks where the payer writes what the bill leaves open. Units are millimetres throughout.

import { groupedAmount } from './amount.ts';
import { PaymentDataError } from './errors.ts';
import { groupedIban } from './iban.ts';
import { escapeXml, qrSvg, withAttributes } from './qr-svg.ts';
import { groupedCreditorReference, groupedQrReference } from './references.ts';
import { SWISS_QR_LABELS, type SwissQrLabels, type SwissQrLanguage } from './swiss-qr-labels.ts';
import { type SwissAddress, type SwissQrBill, swissQrBillFrom, swissQrPayload } from './swiss-qr-payload.ts';

/** Points to millimetres: the style guide gives font sizes in points. */
const PT = 25.4 / 72;
const FONT = "'Liberation Sans', Arial, Helvetica, sans-serif";

/** The QR-bill's payment part as an SVG element from an element's attributes; `language` (en, de, fr, it) and `separator` (line, text, none) shape the print. */
export async function swissQrBillSvg(attributes: Record<string, string>): Promise<string> {
  const bill = swissQrBillFrom(attributes);
  const language = (attributes.language?.trim() || 'en').toLowerCase();
  if (!(language in SWISS_QR_LABELS)) throw new PaymentDataError('language', `"${attributes.language}" is not a QR-bill language: en, de, fr or it.`);
  const separator = attributes.separator?.trim() || 'line';
  if (!['line', 'text', 'none'].includes(separator))
    throw new PaymentDataError(
      'separator',
      `"${separator}" is not a separator: line (plain paper), text (the line and "Separate before paying in") or none (perforated paper).`,
    );
  return drawPaymentPart(bill, SWISS_QR_LABELS[language as SwissQrLanguage], separator as 'line' | 'text' | 'none');
}

function drawPaymentPart(bill: SwissQrBill, labels: SwissQrLabels, separator: 'line' | 'text' | 'none'): string {
  const payload = swissQrPayload(bill);
  const { svg: qr } = qrSvg(payload, 0, { maxVersion: 25, field: 'message' });
  // The words "Separate before paying in" stand above the strip, so the drawing grows 5 mm upwards.
  const top = separator === 'text' ? 5 : 0;
  const parts = [
    `<rect x="0" y="${-top}" width="210" height="${105 + top}" fill="#fff"/>`,
    ...receipt(bill, labels),
    ...paymentPart(bill, labels),
    withAttributes(qr, { x: '67', y: '17', width: '46', height: '46' }),
    swissCross(67 + 23, 17 + 23),
    ...separation(separator, labels),
  ];
  const label = `Swiss QR-bill: pay ${bill.amountCents === undefined ? 'an amount' : `${groupedAmount(bill.amountCents)} ${bill.currency}`} to ${bill.creditor.name}, ${groupedIban(bill.account)}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 ${-top} 210 ${105 + top}" width="210mm" height="${105 + top}mm" role="img" aria-label="${escapeXml(label)}">` +
    `<title>${escapeXml(label)}</title><g font-family="${escapeXml(FONT)}" fill="#000">${parts.join('')}</g></svg>`
  );
}

/** The receipt: 62 mm wide, 5 mm margins, headings 6 pt and values 8 pt. */
function receipt(bill: SwissQrBill, labels: SwissQrLabels): string[] {
  const column = new Column(5, 52, 6, 8);
  column.title(labels.receipt);
  column.y = 12;
  column.block(labels.account, [groupedIban(bill.account), ...addressText(bill.creditor)]);
  if (bill.reference) column.block(labels.reference, [printedReference(bill)]);
  if (bill.debtor) column.block(labels.payableBy, addressText(bill.debtor));
  else {
    column.heading(labels.payableByBlank);
    column.out.push(...cornerMarks(5, column.y, 52, 20));
  }
  column.out.push(...amountSection(bill, labels, 5, 68, 6, 8, { x: 27, width: 30, height: 10, amountAt: 12 }));
  column.out.push(text(57, 82 + 6 * PT, labels.acceptancePoint, 6, 'bold', 'end'));
  return column.out;
}

/** The payment part: the title, QR code and amount in a 51 mm column, then the information in 87 mm; headings 8 pt and values 10 pt. */
function paymentPart(bill: SwissQrBill, labels: SwissQrLabels): string[] {
  const title = new Column(67, 51, 8, 10);
  title.title(labels.paymentPart);
  const column = new Column(118, 87, 8, 10);
  column.y = 5;
  column.block(labels.account, [groupedIban(bill.account), ...addressText(bill.creditor)]);
  if (bill.reference) column.block(labels.reference, [printedReference(bill)]);
  const information = [bill.message, bill.billing].filter((line) => line !== undefined);
  if (information.length > 0) column.block(labels.information, information);
  if (bill.debtor) column.block(labels.payableBy, addressText(bill.debtor));
  else {
    column.heading(labels.payableByBlank);
    column.out.push(...cornerMarks(118, column.y, 65, 25));
  }
  return [...title.out, ...column.out, ...amountSection(bill, labels, 67, 68, 8, 10, { x: 78, width: 40, height: 15, amountAt: 16 })];
}

/** Currency and amount side by side; with no amount, corner marks where the payer writes it. */
function amountSection(
  bill: SwissQrBill,
  labels: SwissQrLabels,
  x: number,
  y: number,
  heading: number,
  value: number,
  blank: { x: number; width: number; height: number; amountAt: number },
): string[] {
  const line = y + heading * PT;
  const out = [text(x, line, labels.currency, heading, 'bold'), text(x + blank.amountAt, line, labels.amount, heading, 'bold')];
  out.push(text(x, line + value * PT * 1.3, bill.currency, value));
  if (bill.amountCents !== undefined) out.push(text(x + blank.amountAt, line + value * PT * 1.3, groupedAmount(bill.amountCents), value));
  else out.push(...cornerMarks(blank.x, line + 1, blank.width, blank.height));
  return out;
}

/** Lays out a column of headed blocks from the top down, wrapping long values to its width. */
class Column {
  readonly out: string[] = [];
  y = 5;
  constructor(
    private readonly x: number,
    private readonly width: number,
    private readonly headingPt: number,
    private readonly valuePt: number,
  ) {}

  title(words: string): void {
    this.out.push(text(this.x, this.y + 11 * PT, words, 11, 'bold'));
  }

  heading(words: string): void {
    this.y += this.headingPt * PT;
    this.out.push(text(this.x, this.y, words, this.headingPt, 'bold'));
    this.y += 1;
  }

  block(heading: string, values: string[]): void {
    this.heading(heading);
    for (const line of values.flatMap((value) => wrap(value, this.width, this.valuePt))) {
      this.y += this.valuePt * PT * 1.1;
      this.out.push(text(this.x, this.y, line, this.valuePt));
    }
    this.y += this.valuePt * PT;
  }
}

function text(x: number, y: number, words: string, pt: number, weight?: 'bold', anchor?: 'end' | 'middle'): string {
  const style = `${weight ? ` font-weight="${weight}"` : ''}${anchor ? ` text-anchor="${anchor}"` : ''}`;
  return `<text x="${round(x)}" y="${round(y)}" font-size="${round(pt * PT)}"${style}>${escapeXml(words)}</text>`;
}

/** A value broken at spaces into lines that fit the width (average glyph about 0.55 em; a long word is cut). */
function wrap(value: string, width: number, pt: number): string[] {
  const perLine = Math.floor(width / (pt * PT * 0.55));
  const lines: string[] = [];
  let line = '';
  for (const word of value.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= perLine) line = next;
    else {
      if (line) lines.push(line);
      line = word;
      while (line.length > perLine) {
        lines.push(line.slice(0, perLine));
        line = line.slice(perLine);
      }
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Name, street and building, postcode and town: the address as the style guide prints it. */
function addressText(address: SwissAddress): string[] {
  const street = [address.street, address.building].filter(Boolean).join(' ');
  return [address.name, ...(street ? [street] : []), `${address.postcode} ${address.town}`];
}

function printedReference(bill: SwissQrBill): string {
  return bill.referenceType === 'QRR' ? groupedQrReference(bill.reference!) : groupedCreditorReference(bill.reference!);
}

/** The four corners of a box the payer fills in: 3 mm strokes of 0.75 pt. */
function cornerMarks(x: number, y: number, width: number, height: number): string[] {
  const c = 3;
  const d = [
    `M${x} ${y + c}V${y}H${x + c}`,
    `M${x + width - c} ${y}H${x + width}V${y + c}`,
    `M${x} ${y + height - c}V${y + height}H${x + c}`,
    `M${x + width - c} ${y + height}H${x + width}V${y + height - c}`,
  ].join('');
  return [`<path d="${roundPath(d)}" fill="none" stroke="#000" stroke-width="${round(0.75 * PT)}"/>`];
}

/** The Swiss cross, 7 x 7 mm centred on the QR code: a white border, a black square, a white cross. */
function swissCross(cx: number, cy: number): string {
  const arm = 3.9 / 2;
  const bar = 1.17 / 2;
  return (
    `<rect x="${round(cx - 3.5)}" y="${round(cy - 3.5)}" width="7" height="7" fill="#fff"/>` +
    `<rect x="${round(cx - 3)}" y="${round(cy - 3)}" width="6" height="6" fill="#000"/>` +
    `<rect x="${round(cx - bar)}" y="${round(cy - arm)}" width="${round(2 * bar)}" height="${round(2 * arm)}" fill="#fff"/>` +
    `<rect x="${round(cx - arm)}" y="${round(cy - bar)}" width="${round(2 * arm)}" height="${round(2 * bar)}" fill="#fff"/>`
  );
}

/** The lines to cut along (top of the strip, receipt | payment part), and above them the words when asked. */
function separation(separator: 'line' | 'text' | 'none', labels: SwissQrLabels): string[] {
  if (separator === 'none') return [];
  const lines = `<path d="M0 0H210M62 0V105" fill="none" stroke="#000" stroke-width="${round(0.5 * PT)}"/>`;
  return separator === 'text' ? [lines, text(105, -1.5, labels.separate, 7, undefined, 'middle')] : [lines];
}

function round(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

function roundPath(d: string): string {
  return d.replace(/\d+\.\d+/g, (number) => round(Number(number)));
}
