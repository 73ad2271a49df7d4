// PDF/UA-1 with the other final steps (issue 42): an attachment and a Factur-X e-invoice under
// PDF/A-3a, then a PAdES signature over it all. The UA step runs after the e-invoice and before
// PDF/A and signing, so one file carries pdfuaid, pdfaid A, the fx: schema and a valid signature.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkUa } from '../../server/src/pdf/ua/check-ua.ts';
import { startTestServer } from '../helpers/start-app.ts';
import { invoiceHtml } from '../helpers/tagged-pdf.ts';
import { makeTestPki } from '../helpers/test-pki.ts';
import { assertUaSeen, uaSeen } from '../helpers/ua-tools.ts';

const INVOICE = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../docs/examples/einvoice-simple.json'), 'utf8'));

/** pdfsig's verdict on the file's signatures. */
function pdfsig(bytes: Uint8Array): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'quire-ua-sig-'));
  try {
    writeFileSync(path.join(folder, 'f.pdf'), bytes);
    return execFileSync('pdfsig', [path.join(folder, 'f.pdf')], { encoding: 'utf8' });
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

test('PDF/UA-1 composes with attachments, a Factur-X e-invoice, PDF/A-3a and a signature', { timeout: 300_000 }, async (t) => {
  const pki = await makeTestPki();
  t.after(() => pki.close());
  const server = await startTestServer(t);
  const imported = await server.admin('POST', '/admin/v1/certificates', {
    pkcs12: pki.signer.p12.toString('base64'),
    password: pki.signer.p12Password,
    owner_key_id: server.key.id,
  });
  const certificate = (await imported.json()) as { id: string };
  assert.equal(imported.status, 201, JSON.stringify(certificate));

  const options = {
    pdf_ua: 'PDF/UA-1',
    pdf_a: 'PDF/A-3a',
    attachments: [{ filename: 'notes.txt', content: Buffer.from('Paid by transfer').toString('base64'), mime_type: 'text/plain' }],
    e_invoice: { profile: 'EN 16931', invoice: INVOICE },
    sign: { certificate_id: certificate.id, reason: 'Issued' },
  };
  const response = await server.render({ html: invoiceHtml(), options });
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, Buffer.from(bytes.subarray(0, 800)).toString());
  assert.match(response.headers.get('x-pdf-ua') ?? '', /failed=0$/);
  assert.match(response.headers.get('x-pdf-conformance') ?? '', /^PDF\/A-3a; rules=\d+; failed=0/);
  // The signature is an incremental update: the checker still passes the signed bytes.
  assert.deepEqual((await checkUa(bytes)).failed, []);
  const seen = uaSeen(bytes);
  assertUaSeen(seen, 'en', ['H1', 'Table'], 'composed');
  assert.deepEqual(seen.pdfa, { part: '3', conformance: 'A' });
  assert.match(pdfsig(bytes), /Signature Validation: Signature is Valid/);
  const listed = pdfDetach(bytes);
  for (const name of ['notes.txt', 'factur-x.xml']) assert.ok(listed.includes(name), `${name} attached: ${listed}`);
});

/** pdfdetach -list's names. */
function pdfDetach(bytes: Uint8Array): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'quire-ua-att-'));
  try {
    writeFileSync(path.join(folder, 'f.pdf'), bytes);
    return execFileSync('pdfdetach', ['-list', path.join(folder, 'f.pdf')], { encoding: 'utf8' });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
