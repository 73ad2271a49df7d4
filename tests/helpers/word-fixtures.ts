// Word templates written by the tests and the bench themselves (no binary fixture committed): an
// invoice docx with placeholders, a table row that repeats per item, a condition and an image tag,
// built on office-fixtures.ts's docx(); and a tiny PNG logo made in code.

import { deflateSync } from 'node:zlib';
import { docx } from './office-fixtures.ts';

const cell = (text: string) => `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr><w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p></w:tc>`;
const row = (cells: string[]) => `<w:tr>${cells.map(cell).join('')}</w:tr>`;

/**
 * An invoice template: {number}, {customer.name} (a dotted path), a {logo} image, a table whose
 * second row repeats for each of {#items}, a {#paid}…{/paid} condition and a {total}.
 */
export function invoiceTemplate(): Uint8Array {
  const table = `<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/><w:tblBorders><w:insideH w:val="single" w:sz="4"/></w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>${row(
    ['Item', 'Quantity', 'Price'],
  )}${row(['{#items}{description}', '{quantity}', '{price}{/items}'])}</w:tbl>`;
  return docx([['{logo}', 'Invoice {number}', 'Bill to: {customer.name}']], {
    body: `${table}<w:p><w:r><w:t xml:space="preserve">Total: {total}</w:t></w:r></w:p><w:p><w:r><w:t xml:space="preserve">{#paid}Paid with thanks.{/paid}</w:t></w:r></w:p>`,
  });
}

/** Data for invoiceTemplate(): `rows` items, paid, and the logo as a data URL when given. */
export function invoiceData(rows: number, logo?: string): Record<string, unknown> {
  const items = Array.from({ length: rows }, (_, index) => ({
    description: `Widget ${index + 1}`,
    quantity: (index % 7) + 1,
    price: `${(index * 1.5 + 2).toFixed(2)} EUR`,
  }));
  return { number: 'INV-2026-042', customer: { name: 'Acme Trading GmbH' }, items, total: '1234.50 EUR', paid: true, ...(logo ? { logo } : {}) };
}

/** A solid-colour PNG of the given size, as a data URL (a logo made in code). */
export function pngDataUrl(width = 60, height = 30, rgb: [number, number, number] = [20, 90, 200]): string {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(typed));
    return Buffer.concat([length, typed, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const line = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => line)));
  const png = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
  return `data:image/png;base64,${png.toString('base64')}`;
}
