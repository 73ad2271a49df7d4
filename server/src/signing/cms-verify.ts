// Checks one signature's CMS against the bytes it claims to cover: the message digest, the
// signature over the signed attributes, signing-certificate-v2, the timestamp token (its imprint
// over the signature value and its own signature), and the chain up to the operator's trust roots,
// valid at the time of signing (the timestamp's when there is one). Node's crypto does the
// arithmetic; pkijs only reads the ASN.1.

import { createHash, verify as verifySignature, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID } from './cms.ts';
import { nameText, tokenInfo } from './tsa.ts';

const DIGESTS: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
  '1.3.14.3.2.26': 'sha1',
};

export interface CmsReport {
  signer?: { subject: string; issuer: string; serial: string; fingerprint: string };
  digest_algorithm?: string;
  /** valid, or what is wrong: digest_mismatch (the covered bytes changed), signature_invalid, unreadable. */
  integrity: 'valid' | 'digest_mismatch' | 'signature_invalid' | 'unreadable';
  problem?: string;
  signing_certificate_v2: boolean;
  /** signing-time signed attribute, when present (PAdES puts the claimed time in /M instead). */
  signing_time_attribute?: string;
  timestamp?: { time: string; authority?: string; valid: boolean; problem?: string };
  chain: { subject: string; issuer: string; not_before: string; not_after: string }[];
  trusted: boolean;
  chain_problem?: string;
  /** The chain's validity at the timestamp's time, else at the claimed signing time. */
  valid_at_signing_time?: boolean;
}

export function checkCms(der: Uint8Array, covered: Uint8Array[], claimedTime: Date | undefined, roots: X509Certificate[]): CmsReport {
  const report: CmsReport = { integrity: 'unreadable', signing_certificate_v2: false, chain: [], trusted: false };
  let signed: pkijs.SignedData;
  try {
    const info = pkijs.ContentInfo.fromBER(new Uint8Array(trimmed(der)));
    signed = new pkijs.SignedData({ schema: info.content });
  } catch (error) {
    report.problem = `the CMS does not read: ${(error as Error).message}`;
    return report;
  }
  const signerInfo = signed.signerInfos[0];
  const certs = (signed.certificates ?? []).filter((cert): cert is pkijs.Certificate => cert instanceof pkijs.Certificate);
  const x509 = certs.map((cert) => new X509Certificate(Buffer.from(cert.toSchema().toBER())));
  const sid = signerInfo?.sid;
  const leafIndex = sid instanceof pkijs.IssuerAndSerialNumber ? certs.findIndex((cert) => cert.serialNumber.isEqual(sid.serialNumber)) : -1;
  const leaf = x509[leafIndex];
  if (!signerInfo || !leaf) {
    report.problem = 'the CMS names no signer certificate it carries';
    return report;
  }
  report.signer = {
    subject: oneLine(leaf.subject),
    issuer: oneLine(leaf.issuer),
    serial: leaf.serialNumber,
    fingerprint: leaf.fingerprint256.replace(/:/g, '').toLowerCase(),
  };
  const digestName = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
  report.digest_algorithm = digestName ?? signerInfo.digestAlgorithm.algorithmId;
  if (!digestName || !signerInfo.signedAttrs) {
    report.problem = 'unsupported digest or no signed attributes';
    return report;
  }
  const attribute = (type: string) => signerInfo.signedAttrs?.attributes.find((a) => a.type === type)?.values[0];
  const hash = createHash(digestName);
  for (const part of covered) hash.update(part);
  const messageDigest = attribute(OID.messageDigest) as asn1js.OctetString | undefined;
  const signatureValue = Buffer.from(signerInfo.signature.valueBlock.valueHexView);
  const signedAttrs = Buffer.from(signerInfo.signedAttrs.encodedValue);
  const ok = verifySignature(digestName, signedAttrs, { key: leaf.publicKey, dsaEncoding: 'der' }, signatureValue);
  report.integrity =
    !messageDigest || !hash.digest().equals(Buffer.from(messageDigest.valueBlock.valueHexView)) ? 'digest_mismatch' : ok ? 'valid' : 'signature_invalid';
  const essV2 = attribute(OID.signingCertificateV2);
  report.signing_certificate_v2 = essV2 !== undefined && essHashMatches(essV2, leaf);
  const signingTime = attribute(OID.signingTime) as asn1js.UTCTime | undefined;
  if (signingTime) report.signing_time_attribute = signingTime.toDate().toISOString();
  const token = signerInfo.unsignedAttrs?.attributes.find((a) => a.type === OID.signatureTimeStampToken)?.values[0];
  if (token) report.timestamp = checkTimestamp(token, signatureValue, roots);
  const at = report.timestamp?.valid ? new Date(report.timestamp.time) : claimedTime;
  Object.assign(report, checkChain(leaf, x509, roots, at));
  return report;
}

/** The CMS without the zeros that pad /Contents (DER states its own length). */
function trimmed(der: Uint8Array): Uint8Array {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1) throw new Error(parsed.result.error);
  return der.subarray(0, parsed.offset);
}

function essHashMatches(value: asn1js.AsnType, leaf: X509Certificate): boolean {
  try {
    const certIds = (value as asn1js.Sequence).valueBlock.value[0] as asn1js.Sequence;
    const first = certIds.valueBlock.value[0] as asn1js.Sequence;
    const parts = first.valueBlock.value;
    const algorithm = parts[0] instanceof asn1js.Sequence ? DIGESTS[(parts[0].valueBlock.value[0] as asn1js.ObjectIdentifier).getValue()] : 'sha256';
    const hashed = (parts[0] instanceof asn1js.OctetString ? parts[0] : parts[1]) as asn1js.OctetString;
    return !!algorithm && createHash(algorithm).update(leaf.raw).digest().equals(Buffer.from(hashed.valueBlock.valueHexView));
  } catch {
    return false;
  }
}

function checkTimestamp(value: asn1js.AsnType, signatureValue: Buffer, roots: X509Certificate[]): CmsReport['timestamp'] {
  try {
    const token = new pkijs.ContentInfo({ schema: value });
    const info = tokenInfo(token);
    if (!info) return { time: '', valid: false, problem: 'the token carries no TSTInfo' };
    const signed = new pkijs.SignedData({ schema: token.content });
    const certs = (signed.certificates ?? []).filter((cert): cert is pkijs.Certificate => cert instanceof pkijs.Certificate);
    const tsaCert = certs[0] ? new X509Certificate(Buffer.from(certs[0].toSchema().toBER())) : undefined;
    const result = { time: info.genTime.toISOString(), authority: certs[0] ? nameText(certs[0].subject) : undefined };
    const imprintAlgorithm = DIGESTS[info.messageImprint.hashAlgorithm.algorithmId] ?? 'sha256';
    if (!createHash(imprintAlgorithm).update(signatureValue).digest().equals(Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView)))
      return { ...result, valid: false, problem: 'the token is over another signature value' };
    const tsaSigner = signed.signerInfos[0];
    if (!tsaCert || !tsaSigner?.signedAttrs) return { ...result, valid: false, problem: 'the token carries no TSA certificate or signed attributes' };
    const digestName = DIGESTS[tsaSigner.digestAlgorithm.algorithmId] ?? 'sha256';
    const content = Buffer.from(signed.encapContentInfo.eContent!.getValue());
    const digest = tsaSigner.signedAttrs.attributes.find((a) => a.type === OID.messageDigest)?.values[0] as asn1js.OctetString | undefined;
    const digestOk = !!digest && createHash(digestName).update(content).digest().equals(Buffer.from(digest.valueBlock.valueHexView));
    const signatureOk = verifySignature(
      digestName,
      Buffer.from(tsaSigner.signedAttrs.encodedValue),
      { key: tsaCert.publicKey, dsaEncoding: 'der' },
      Buffer.from(tsaSigner.signature.valueBlock.valueHexView),
    );
    if (!digestOk || !signatureOk) return { ...result, valid: false, problem: 'the token’s own signature does not verify' };
    const chain = checkChain(
      tsaCert,
      certs.map((cert) => new X509Certificate(Buffer.from(cert.toSchema().toBER()))),
      roots,
      info.genTime,
    );
    return chain.trusted ? { ...result, valid: true } : { ...result, valid: false, problem: `the TSA is not trusted: ${chain.chain_problem}` };
  } catch (error) {
    return { time: '', valid: false, problem: `the token does not read: ${(error as Error).message}` };
  }
}

/** Walks from the leaf through the carried certificates to a trust root; validity checked at `at`. */
export function checkChain(
  leaf: X509Certificate,
  carried: X509Certificate[],
  roots: X509Certificate[],
  at: Date | undefined,
): Pick<CmsReport, 'chain' | 'trusted' | 'chain_problem' | 'valid_at_signing_time'> {
  const chain = [leaf];
  let trusted = false;
  let problem: string | undefined;
  for (let current = leaf; chain.length < 10; ) {
    const root = roots.find((candidate) => current.checkIssued(candidate) && current.verify(candidate.publicKey));
    if (root) {
      trusted = true;
      if (!root.raw.equals(current.raw)) chain.push(root);
      break;
    }
    const issuer = carried.find((candidate) => !chain.includes(candidate) && current.checkIssued(candidate) && current.verify(candidate.publicKey));
    if (!issuer) {
      problem = current.checkIssued(current)
        ? `the chain ends at ${oneLine(current.subject)}, which is not a trusted root`
        : `the issuer of ${oneLine(current.subject)} (${oneLine(current.issuer)}) is neither carried nor a trusted root`;
      break;
    }
    chain.push(issuer);
    current = issuer;
  }
  if (roots.length === 0) problem = 'the server has no trust store (TRUST_STORE)';
  const validAt = at && chain.every((cert) => Date.parse(cert.validFrom) <= at.getTime() && at.getTime() <= Date.parse(cert.validTo));
  return {
    chain: chain.map((cert) => ({
      subject: oneLine(cert.subject),
      issuer: oneLine(cert.issuer),
      not_before: new Date(cert.validFrom).toISOString(),
      not_after: new Date(cert.validTo).toISOString(),
    })),
    trusted,
    ...(problem && !trusted ? { chain_problem: problem } : {}),
    ...(at ? { valid_at_signing_time: !!validAt } : {}),
  };
}

export const oneLine = (name: string): string => name.split('\n').filter(Boolean).join(', ');
