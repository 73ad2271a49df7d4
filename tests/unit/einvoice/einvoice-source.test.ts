// Which attachment of a hybrid PDF is the invoice (services/einvoice/source.ts), over listings the
// PDF tools would give: a Factur-X / ZUGFeRD / XRechnung name in any case, or an invoice XML attached
// as Alternative, Data or Source; other XML is not one; none or two is 422 einvoice_unreadable.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../server/src/errors.ts';
import type { AttachedFile } from '../../../server/src/pdf/attached-files.ts';
import { einvoiceSource } from '../../../server/src/services/einvoice/source.ts';
import type { Account } from '../../../server/src/services/accounts/keys.ts';

const CII = '<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>';
const UBL = '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>';
const ACCOUNT = { keyId: 'key_test' } as Account;
const file = (name: string, xml: string | undefined, relationship: string | null = 'Alternative'): AttachedFile => ({
  name,
  relationship,
  mime: 'text/xml',
  ...(xml === undefined ? {} : { bytes: new TextEncoder().encode(xml) }),
});

/** The source read from a PDF whose attachments are `files`. */
function sourceOf(files: AttachedFile[]) {
  return einvoiceSource({ pdf: new Uint8Array([37]) }, ACCOUNT, { attachedFiles: async () => ({ files }) });
}

async function refusal(files: AttachedFile[]): Promise<string> {
  const error = await sourceOf(files).then(
    () => assert.fail('expected a refusal'),
    (thrown: unknown) => thrown,
  );
  assert.ok(error instanceof ApiError);
  assert.equal(error.code, 'einvoice_unreadable');
  return error.message;
}

test('the invoice is the file with a hybrid format’s name, in any case, whatever its relationship', async () => {
  for (const name of ['factur-x.xml', 'ZUGFeRD-invoice.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'Factur-X.XML']) {
    const source = await sourceOf([file('logo.png', undefined, 'Supplement'), file(name, CII, null)]);
    assert.deepEqual(source.origin, { kind: 'pdf', attachment: name });
    assert.equal(new TextDecoder().decode(source.xml as Uint8Array), CII);
  }
});

test('another XML is the invoice when attached as Alternative, Data or Source and its root is one', async () => {
  for (const relationship of ['Alternative', 'Data', 'Source']) {
    const source = await sourceOf([file('rechnung.xml', UBL, relationship), file('order.xml', '<Order/>', relationship)]);
    assert.deepEqual(source.origin, { kind: 'pdf', attachment: 'rechnung.xml' });
  }
  assert.match(await refusal([file('rechnung.xml', UBL, 'Supplement')]), /none of its attached files \(rechnung\.xml \(Supplement\)\)/);
  assert.match(await refusal([file('evil.xml', '<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>', 'Data')]), /no e-invoice/);
});

test('no invoice, or two, is refused naming the files', async () => {
  assert.match(await refusal([]), /no e-invoice: it has no attached files/);
  const two = await refusal([file('factur-x.xml', CII), file('invoice.xml', UBL, 'Data')]);
  assert.match(two, /2 e-invoices \(factur-x\.xml, invoice\.xml\)/);
});
