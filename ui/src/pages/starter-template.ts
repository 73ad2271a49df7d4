// What a new template starts with: the invoice example of docs/examples (a template that draws an
// invoice, and an invoice as JSON, docs/api.md#invoice-json), so the studio's "Write the invoice
// from the template's data" works on a new template as it stands, and the readable invoice and the
// e-invoice come from one object. The files are the documentation's, read in at build time.

import html from '../../../docs/examples/invoice-template.html?raw';
import data from '../../../docs/examples/invoice.json?raw';

export const STARTER_HTML: string = html;
export const STARTER_DATA: Record<string, unknown> = JSON.parse(data);
