// Signing (issue 32) against a real Chromium: certificates imported through the admin API (PKCS#12
// and PEM), renders and an uploaded PDF signed PAdES B-B and B-T with a real TSA on loopback, each
// result read by independent tools (pdfsig with an NSS database trusting the test CA, openssl cms
// -verify, openssl ts -verify), POST /v1/pdf/verify on intact, tampered, extended and untrusted
// files, and every refusal made before anything is charged.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { PDFDocument } from '@cantoo/pdf-lib';
import { opensslCms, opensslTs, pdfsig } from '../helpers/pdf-signatures.ts';
import { preflight1b, preflightMissing } from '../helpers/pdf-a-tools.ts';
import { bearer, errorOf, startTestServer, usageOf } from '../helpers/start-app.ts';
import { makeTestPki, startTestTsa } from '../helpers/test-pki.ts';

const missing = ['pdfsig', 'certutil', 'openssl'].filter((tool) => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`]);
    return false;
  } catch {
    return true;
  }
});
const skip = missing.length > 0 && !process.env.CI ? `needs ${missing.join(', ')} (Debian poppler-utils, libnss3-tools, openssl)` : false;

interface Report {
  field: string;
  valid: boolean;
  integrity: string;
  coverage: string;
  changed_after: string[];
  trusted: boolean;
  chain_problem?: string;
  level?: string;
  signer?: { subject: string; fingerprint: string };
  timestamp?: { time: string; authority?: string; valid: boolean };
  valid_at_signing_time?: boolean;
  signing_certificate_v2: boolean;
  reason?: string;
}

test('signing: PAdES B-B and B-T, certificates, verify', { skip }, async (t) => {
  const pki = await makeTestPki();
  t.after(() => pki.close());
  const tsa = await startTestTsa(pki);
  t.after(() => tsa.close());
  const caFile = path.join(pki.dir, 'ca.pem');
  const trustStore = path.join(pki.dir, 'trust.pem');
  await writeFile(trustStore, pki.caPem);
  const server = await startTestServer(t, { tsaUrl: tsa.url, tsaAllowHosts: ['127.0.0.1'], tsaTimeoutMs: 3000, trustStore });
  const other = await server.createKey('business', { name: 'other' });

  const importCert = async (body: Record<string, unknown>) => {
    const response = await server.admin('POST', '/admin/v1/certificates', body);
    const text = await response.text();
    return { status: response.status, text, json: JSON.parse(text) as { id: string; fingerprint: string; code?: string; warning?: string } };
  };
  const mine = await importCert({ pkcs12: pki.signer.p12.toString('base64'), password: pki.signer.p12Password, owner_key_id: server.key.id, name: 'Alice' });
  assert.equal(mine.status, 201, mine.text);
  const theirs = await importCert({ key_pem: pki.signer.key, certificate_pem: pki.signer.cert + pki.caPem, owner_key_id: other.id });
  assert.equal(theirs.status, 201, theirs.text);
  const expired = await importCert({ key_pem: pki.expired.key, certificate_pem: pki.expired.cert, owner_key_id: server.key.id });
  assert.equal(expired.status, 201, expired.text);
  const stranger = await importCert({ key_pem: pki.stranger.key, certificate_pem: pki.stranger.cert + pki.stranger.caPem, owner_key_id: server.key.id });

  await t.test('import keeps the key secret and reads the certificate', async () => {
    for (const answer of [mine.text, theirs.text]) {
      assert.doesNotMatch(answer, /PRIVATE KEY|sealed|p12-secret/i);
    }
    const own = (await (await server.request('GET', '/v1/certificates')).json()) as { data: { id: string; subject: string; fingerprint: string }[] };
    assert.deepEqual(own.data.map((cert) => cert.id).sort(), [mine.json.id, expired.json.id, stranger.json.id].sort(), 'its own only, not the other key’s');
    const fingerprint = execFileSync('openssl', ['x509', '-noout', '-fingerprint', '-sha256', '-in', path.join(pki.dir, 'signer.pem')], { encoding: 'utf8' });
    assert.equal(mine.json.fingerprint, fingerprint.split('=')[1]!.trim().replace(/:/g, '').toLowerCase());
    assert.match(
      JSON.stringify(own.data.find((cert) => cert.id === expired.json.id)),
      /"warning":"expired on \d{1,2} [A-Z][a-z]{2} 2001, \d\d:\d\d UTC"/,
      'a date people read, not ISO',
    );
    const wrong = await importCert({ pkcs12: pki.signer.p12.toString('base64'), password: 'wrong' });
    assert.equal(wrong.status, 422);
    assert.equal(wrong.json.code, 'certificate_invalid');
  });

  let signedBT: Uint8Array | undefined;

  await t.test('a render signed B-B: pdfsig valid and trusted, openssl cms verifies, no signing-time', async () => {
    const before = await usageOf(server);
    const response = await server.render({
      html: '<h1>Contract</h1><p>Signed.</p>',
      options: { wait_until: 'load', sign: { certificate_id: mine.json.id, reason: 'Approved', location: 'Berlin' } },
    });
    const pdf = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.status, 200, Buffer.from(pdf).toString().slice(0, 300));
    assert.equal(await usageOf(server), before + 1);
    assert.match(response.headers.get('x-pdf-signature') ?? '', new RegExp(`PAdES-B-B; certificate=${mine.json.fingerprint}`));
    const sig = await pdfsig(pdf, pki.nssDir);
    assert.match(sig, /Signature Type: ETSI\.CAdES\.detached/);
    assert.match(sig, /Signature is Valid\./);
    assert.match(sig, /Certificate is Trusted\./);
    assert.match(sig, /Total document signed/);
    const cms = await opensslCms(pdf, caFile);
    assert.ok(cms.verified, cms.stderr);
    assert.match(cms.printed, /id-smime-aa-signingCertificateV2|1\.2\.840\.113549\.1\.9\.16\.2\.47/);
    assert.doesNotMatch(cms.printed, /signingTime/);
    await writeFile(path.join(pki.dir, 'bb.pdf'), pdf);
    assert.match(execFileSync('qpdf', ['--check', path.join(pki.dir, 'bb.pdf')], { encoding: 'utf8' }), /No syntax or stream encoding errors/);
  });

  await t.test('B-T: the timestamp token verifies with openssl ts over the signature value', async () => {
    const answered = tsa.answered;
    const response = await server.render({
      html: '<p>Timestamped</p>',
      options: { wait_until: 'load', sign: { certificate_id: mine.json.id, level: 'B-T', visible: { x: 40, y: 40, width: 220, height: 50 } } },
    });
    const pdf = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.status, 200, Buffer.from(pdf).toString().slice(0, 300));
    assert.equal(tsa.answered, answered + 1);
    const sig = await pdfsig(pdf, pki.nssDir);
    assert.match(sig, /Signature is Valid\./);
    assert.match(sig, /Certificate is Trusted\./);
    assert.ok((await opensslCms(pdf, caFile)).verified);
    const ts = await opensslTs(pdf, caFile);
    assert.ok(ts.verified, ts.output);
    assert.match(ts.output, /Verification: OK/);
    signedBT = pdf;
  });

  const verify = async (pdf: Uint8Array): Promise<Report[]> => {
    const response = await server.request('POST', '/v1/pdf/verify', { pdf: Buffer.from(pdf).toString('base64') });
    const body = (await response.json()) as { signatures: Report[] };
    assert.equal(response.status, 200, JSON.stringify(body));
    return body.signatures;
  };

  await t.test('verify: intact, a flipped byte, an appended page, an untrusted chain', async () => {
    const [intact] = await verify(signedBT!);
    assert.equal(intact!.valid, true, JSON.stringify(intact));
    assert.equal(intact!.level, 'B-T');
    assert.equal(intact!.coverage, 'whole_file');
    assert.equal(intact!.timestamp?.valid, true);
    assert.match(intact!.timestamp?.authority ?? '', /Quire Test TSA/);
    assert.match(intact!.signer?.subject ?? '', /Alice Signer/);
    assert.equal(intact!.valid_at_signing_time, true);

    const flipped = Buffer.from(signedBT!);
    const at = flipped.indexOf('Timestamped') >= 0 ? flipped.indexOf('/Type') : 200;
    flipped[at + 2] = flipped[at + 2] === 0x79 ? 0x7a : 0x79;
    const [tampered] = await verify(flipped);
    assert.equal(tampered!.integrity, 'digest_mismatch');
    assert.equal(tampered!.valid, false);
    assert.match(await pdfsig(flipped, pki.nssDir), /Digest Mismatch|Signature is Invalid/i);

    const doc = await PDFDocument.load(signedBT!, { forIncrementalUpdate: true, updateMetadata: false });
    doc.addPage([200, 200]).drawText('added later');
    const extended = await doc.commit();
    const [after] = await verify(extended);
    assert.equal(after!.integrity, 'valid', 'the signed revision itself is intact');
    assert.equal(after!.coverage, 'revision');
    assert.ok(after!.changed_after.includes('pages_added'), JSON.stringify(after!.changed_after));
    assert.equal(after!.valid, false);

    const untrusted = await server.render({ html: '<p>x</p>', options: { wait_until: 'load', sign: { certificate_id: stranger.json.id } } });
    assert.equal(untrusted.status, 200);
    const [strange] = await verify(new Uint8Array(await untrusted.arrayBuffer()));
    assert.equal(strange!.integrity, 'valid');
    assert.equal(strange!.trusted, false);
    assert.match(strange!.chain_problem ?? '', /Somebody Else CA.*not a trusted root/);
  });

  await t.test('a signed PDF/A stays PDF/A (PDFBox Preflight 1b), and a visible box is refused with pdf_a', { skip: preflightMissing }, async () => {
    const response = await server.render({
      html: '<h1>Archive</h1><p>Kept for ten years.</p>',
      options: { wait_until: 'load', pdf_a: 'PDF/A-1b', sign: { certificate_id: mine.json.id, level: 'B-T' } },
    });
    const pdf = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.status, 200, Buffer.from(pdf).toString().slice(0, 300));
    const check = preflight1b(pdf);
    assert.ok(check.valid, check.output);
    assert.match(await pdfsig(pdf, pki.nssDir), /Signature is Valid\.[\s\S]*Certificate is Trusted\./);
    const visible = await server.render({
      html: '<p>x</p>',
      options: { wait_until: 'load', pdf_a: 'PDF/A-2b', sign: { certificate_id: mine.json.id, visible: { x: 10, y: 10, width: 100, height: 40 } } },
    });
    const refused = await errorOf(visible);
    assert.deepEqual(pick(refused), { status: 400, code: 'invalid_request' });
    assert.match(refused.detail, /options\.sign\.visible/);
  });

  await t.test('an uploaded PDF is signed through the merge (one pdf source)', async () => {
    const upload = await PDFDocument.create();
    upload.addPage([300, 300]).drawText('uploaded');
    const original = await upload.save();
    const response = await server.request('POST', '/v1/pdf/merge', {
      sources: [{ pdf: Buffer.from(original).toString('base64') }],
      options: { sign: { certificate_id: mine.json.id } },
    });
    const pdf = new Uint8Array(await response.arrayBuffer());
    assert.equal(response.status, 200, Buffer.from(pdf).toString().slice(0, 300));
    assert.match(await pdfsig(pdf, pki.nssDir), /Signature is Valid\./);
  });

  await t.test('refusals before any charge', async () => {
    const before = await usageOf(server);
    const refused = async (sign: Record<string, unknown>, extra: Record<string, unknown> = {}, headers?: Record<string, string>) =>
      errorOf(await server.render({ html: '<p>x</p>', options: { wait_until: 'load', sign, ...extra } }, headers));
    assert.deepEqual(pick(await refused({ certificate_id: theirs.json.id })), { status: 404, code: 'certificate_not_found' });
    assert.deepEqual(pick(await refused({ certificate_id: 'crt_nothing' })), { status: 404, code: 'certificate_not_found' });
    const old = await refused({ certificate_id: expired.json.id });
    assert.deepEqual(pick(old), { status: 422, code: 'certificate_not_valid' });
    assert.match(old.detail, /expired on \d{1,2} [A-Z][a-z]{2} 2001, \d\d:\d\d UTC\./);
    const encrypted = await refused({ certificate_id: mine.json.id }, { encrypt: { user_password: 'u', owner_password: 'o' } });
    assert.deepEqual(pick(encrypted), { status: 400, code: 'invalid_request' });
    assert.match(encrypted.detail, /options\.sign.*encrypt/);
    // The other key may not use this key's certificate either.
    assert.deepEqual(pick(await refused({ certificate_id: mine.json.id }, {}, bearer(other))), { status: 404, code: 'certificate_not_found' });
    tsa.hang = true;
    try {
      const hung = await refused({ certificate_id: mine.json.id, level: 'B-T' });
      assert.deepEqual(pick(hung), { status: 503, code: 'timestamp_unavailable' });
    } finally {
      tsa.hang = false;
    }
    assert.equal(await usageOf(server), before, 'nothing refused was charged');
  });

  await t.test('operator certificates are granted to keys', async () => {
    const shared = await importCert({ key_pem: pki.signer.key, certificate_pem: pki.signer.cert });
    assert.equal(shared.status, 201, shared.text);
    assert.equal((await server.render({ html: '<p>x</p>', options: { wait_until: 'load', sign: { certificate_id: shared.json.id } } })).status, 404);
    const granted = await server.admin('PUT', `/admin/v1/certificates/${shared.json.id}/grants`, { key_ids: [server.key.id] });
    assert.equal(granted.status, 200);
    const signed = await server.render({ html: '<p>x</p>', options: { wait_until: 'load', sign: { certificate_id: shared.json.id } } });
    assert.equal(signed.status, 200);
    assert.equal((await server.admin('DELETE', `/admin/v1/certificates/${shared.json.id}`)).status, 204);
    assert.equal((await server.render({ html: '<p>x</p>', options: { wait_until: 'load', sign: { certificate_id: shared.json.id } } })).status, 404);
  });

  await t.test('/health warns about the expired certificate', async () => {
    const health = (await (await server.requestWithoutKey('GET', '/health')).json()) as { signing?: { certificates_expiring: { id: string }[] } };
    assert.ok(health.signing?.certificates_expiring.some((cert) => cert.id === expired.json.id));
  });
});

const pick = ({ status, code }: { status: number; code: string }) => ({ status, code });
