// Reads a signed PDF with tools other than Quire's: poppler's pdfsig (trust from an NSS database),
// `openssl cms -verify` over the signed byte ranges, `openssl cms -cmsout -print` for the signed
// attributes, and `openssl ts -verify` on the timestamp token (taken out of the CMS with asn1js,
// a parser only: openssl does the checking).

import { execFile as execFileCallback } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as asn1js from 'asn1js';

const execFile = promisify(execFileCallback);

/** The last signature's byte range, the bytes it covers and its CMS (zeros trimmed). */
export function lastSignature(pdf: Uint8Array): { range: number[]; covered: Buffer; cms: Buffer } {
  const text = Buffer.from(pdf).toString('latin1');
  const matches = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const range = matches.at(-1)!.slice(1, 5).map(Number);
  const [a, b, c, d] = range as [number, number, number, number];
  const bytes = Buffer.from(pdf);
  const hex = bytes.subarray(a + b + 1, c - 1).toString('latin1');
  const der = Buffer.from(hex, 'hex');
  const parsed = asn1js.fromBER(new Uint8Array(der));
  return { range, covered: Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]), cms: der.subarray(0, parsed.offset) };
}

export async function pdfsig(pdf: Uint8Array, nssDir: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-pdfsig-'));
  try {
    await writeFile(path.join(dir, 'f.pdf'), pdf);
    const { stdout } = await execFile('pdfsig', ['-nssdir', `sql:${nssDir}`, path.join(dir, 'f.pdf')], { timeout: 30_000 }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
    );
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `openssl cms -verify` over the covered bytes against the CA; answers openssl's verdict and the printed structure. */
export async function opensslCms(pdf: Uint8Array, caFile: string): Promise<{ verified: boolean; printed: string; stderr: string }> {
  const { covered, cms } = lastSignature(pdf);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-cms-'));
  try {
    await writeFile(path.join(dir, 'sig.der'), cms);
    await writeFile(path.join(dir, 'content.bin'), covered);
    const result = await execFile(
      'openssl',
      ['cms', '-verify', '-binary', '-inform', 'DER', '-in', 'sig.der', '-content', 'content.bin', '-CAfile', caFile, '-purpose', 'any', '-out', '/dev/null'],
      { cwd: dir, timeout: 30_000 },
    )
      .then(({ stderr }) => ({ verified: true, stderr }))
      .catch((error: { stderr?: string }) => ({ verified: false, stderr: error.stderr ?? String(error) }));
    const { stdout: printed } = await execFile('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', 'sig.der'], {
      cwd: dir,
      timeout: 30_000,
      maxBuffer: 8 << 20,
    });
    return { ...result, printed };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `openssl ts -verify` of the signature's timestamp token against the signature value it must cover. */
export async function opensslTs(pdf: Uint8Array, caFile: string): Promise<{ verified: boolean; output: string }> {
  const { cms } = lastSignature(pdf);
  const contentInfo = asn1js.fromBER(new Uint8Array(cms)).result as asn1js.Sequence;
  const signedData = ((contentInfo.valueBlock.value[1] as asn1js.Constructed).valueBlock.value[0] as asn1js.Sequence).valueBlock.value;
  const signerInfos = signedData.at(-1) as asn1js.Set;
  const signerInfo = (signerInfos.valueBlock.value[0] as asn1js.Sequence).valueBlock.value;
  const unsigned = signerInfo.at(-1) as asn1js.Constructed;
  const signature = signerInfo.at(-2) as asn1js.OctetString;
  const attribute = unsigned.valueBlock.value[0] as asn1js.Sequence;
  const token = (attribute.valueBlock.value[1] as asn1js.Set).valueBlock.value[0]!;
  const digest = createHash('sha256').update(signature.valueBlock.valueHexView).digest('hex');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-ts-'));
  try {
    await writeFile(path.join(dir, 'token.der'), Buffer.from(token.toBER()));
    return await execFile('openssl', ['ts', '-verify', '-in', 'token.der', '-token_in', '-digest', digest, '-CAfile', caFile], { cwd: dir, timeout: 30_000 })
      .then(({ stdout, stderr }) => ({ verified: true, output: stdout + stderr }))
      .catch((error: { stdout?: string; stderr?: string }) => ({ verified: false, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
