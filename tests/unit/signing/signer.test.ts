// The signer without a server: the original bytes stay the first revision, the trailer keeps the
// document's /ID, a second signature keeps the first one valid, and an EC key signs too. Results
// are read by openssl cms (independent of the code under test) and by verify.ts.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { PDFDocument, PDFHexString, PDFArray } from '@cantoo/pdf-lib';
import { preparePlaceholder } from '../../../server/src/signing/placeholder.ts';
import { signPdf } from '../../../server/src/signing/sign-pdf.ts';
import { SoftwareSigner } from '../../../server/src/signing/signer.ts';
import { verifySignatures } from '../../../server/src/signing/verify.ts';
import { seal, unseal, SealError } from '../../../server/src/signing/key-seal.ts';
import { randomBytes } from 'node:crypto';
import { opensslCms } from '../../helpers/pdf-signatures.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'quire-signer-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
openssl(
  'req',
  '-x509',
  '-newkey',
  'ec',
  '-pkeyopt',
  'ec_paramgen_curve:P-256',
  '-nodes',
  '-keyout',
  'ec.key',
  '-out',
  'ec.pem',
  '-days',
  '30',
  '-subj',
  '/CN=EC Signer',
);
const der = (pem: string) => Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
const signer = new SoftwareSigner(readFileSync(path.join(dir, 'ec.key'), 'utf8'), [der(readFileSync(path.join(dir, 'ec.pem'), 'utf8'))]);
const trustPem = readFileSync(path.join(dir, 'ec.pem'), 'utf8');

async function source(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 300]).drawText('original');
  doc.context.trailerInfo.ID = PDFArray.withContext(doc.context);
  (doc.context.trailerInfo.ID as PDFArray).push(PDFHexString.of('00112233445566778899aabbccddeeff'));
  (doc.context.trailerInfo.ID as PDFArray).push(PDFHexString.of('00112233445566778899aabbccddeeff'));
  return doc.save();
}

test('the original bytes stay the first revision and the update keeps /ID; openssl verifies the EC signature', async () => {
  const original = await source();
  const { pdf } = await signPdf(original, signer, { level: 'B-B', reason: 'Test' }, preparePlaceholder);
  assert.ok(Buffer.from(pdf.subarray(0, original.byteLength)).equals(Buffer.from(original)), 'the original is a prefix');
  assert.match(Buffer.from(pdf).toString('latin1').slice(-400), /\/ID \[ <00112233445566778899AABBCCDDEEFF>|\/ID \[ <00112233445566778899aabbccddeeff>/i);
  writeFileSync(path.join(dir, 'ec.pdf'), pdf);
  const cms = await opensslCms(pdf, path.join(dir, 'ec.pem'));
  assert.ok(cms.verified, cms.stderr);
  const [report] = await verifySignatures(pdf, { trustPem });
  assert.equal(report!.valid, true, JSON.stringify(report));
  assert.equal(report!.level, 'B-B');
  assert.equal(report!.reason, 'Test');
});

test('a second signature leaves the first valid, reported as followed by a signature only', async () => {
  const once = (await signPdf(await source(), signer, { level: 'B-B' }, preparePlaceholder)).pdf;
  const twice = (await signPdf(once, signer, { level: 'B-B', visible: { box: [10, 10, 120, 40], text: 'Second' } }, preparePlaceholder)).pdf;
  const reports = await verifySignatures(twice, { trustPem });
  assert.deepEqual(
    reports.map((r) => r.field),
    ['Signature1', 'Signature2'],
  );
  assert.equal(reports[0]!.coverage, 'revision');
  assert.deepEqual(reports[0]!.changed_after, ['signature_added']);
  assert.equal(reports[0]!.valid, true);
  assert.equal(reports[1]!.coverage, 'whole_file');
  assert.equal(reports[1]!.valid, true);
});

test('B-T without a TSA is refused before anything is made', async () => {
  await assert.rejects(signPdf(await source(), signer, { level: 'B-T' }, preparePlaceholder), /B-T needs a time-stamping authority/);
});

test('sealed keys open only with their master key and for their record', () => {
  const master = randomBytes(32);
  const sealed = seal(master, Buffer.from('secret key'), 'crt_a');
  assert.equal(unseal(master, sealed, 'crt_a').toString(), 'secret key');
  assert.throws(() => unseal(master, sealed, 'crt_b'), SealError);
  assert.throws(() => unseal(randomBytes(32), sealed, 'crt_a'), /sealed under master key/);
  const flipped = `${sealed.slice(0, -4)}${sealed.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
  assert.throws(() => unseal(master, flipped, 'crt_a'), SealError);
  assert.doesNotMatch(sealed, /secret key/);
});
