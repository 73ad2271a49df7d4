// The CMS half of a PAdES signature (ETSI EN 319 142-1, B-B and B-T): a detached SignedData whose
// signed attributes are exactly contentType, messageDigest and signing-certificate-v2 (no
// signing-time: the PDF's /M carries the claimed time), the signer's chain as certificates, and
// for B-T the timestamp token over the signature value as an unsigned attribute. pkijs builds the
// ASN.1; the signature itself comes from a Signer (signer.ts), which may be a token.

import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { Signer } from './signer.ts';

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
} as const;

export const sha256 = (data: Uint8Array): Uint8Array => createHash('sha256').update(data).digest();

/** A DER certificate parsed for pkijs. */
export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  return pkijs.Certificate.fromBER(new Uint8Array(der));
}

export interface SignedCms {
  /** The SignedData before the timestamp, to add it once the signature value is known. */
  signerInfo: pkijs.SignerInfo;
  signedData: pkijs.SignedData;
  signature: Uint8Array;
}

/** Signs the document digest: signed attributes made, DER-sorted, and given to the signer. */
export async function signDigest(digest: Uint8Array, signer: Signer): Promise<SignedCms> {
  const [leafDer, ...rest] = signer.chain;
  if (!leafDer) throw new Error('a signer needs its certificate');
  const leaf = parseCertificate(leafDer);
  const attributes = [
    new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
    new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: digest })] }),
    new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2(leaf, leafDer)] }),
  ];
  // DER: a SET OF is written in the order of its members' encodings; the signature covers that.
  const encoded = attributes.map((attribute) => ({ attribute, der: new Uint8Array(attribute.toSchema().toBER()) }));
  encoded.sort((a, b) => Buffer.compare(a.der, b.der));
  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: encoded.map((item) => item.attribute) });
  const setOf = new Uint8Array(signedAttrs.toSchema().toBER());
  setOf[0] = 0x31; // signed over as a SET, stored as [0] IMPLICIT
  const signature = await signer.sign(setOf);
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: leaf.issuer, serialNumber: leaf.serialNumber }),
    digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
    signedAttrs,
    signatureAlgorithm: signatureAlgorithm(signer.keyType),
    signature: new asn1js.OctetString({ valueHex: signature }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 })],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates: [leaf, ...rest.map(parseCertificate)],
    signerInfos: [signerInfo],
  });
  return { signerInfo, signedData, signature };
}

/** The CMS as DER, with the timestamp token (a ContentInfo's DER) as an unsigned attribute when given. */
export function encodeCms(cms: SignedCms, timestampToken?: Uint8Array): Uint8Array {
  if (timestampToken) {
    const token = asn1js.fromBER(timestampToken);
    if (token.offset === -1) throw new Error('the timestamp token is not DER');
    cms.signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [token.result] })],
    });
  }
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: cms.signedData.toSchema(true) });
  return new Uint8Array(contentInfo.toSchema().toBER());
}

/** ESS signing-certificate-v2 (RFC 5035): the leaf's sha256 (the default, so no algorithm) and issuer/serial. */
function signingCertificateV2(leaf: pkijs.Certificate, leafDer: Uint8Array): asn1js.Sequence {
  const issuerSerial = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({ value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [leaf.issuer.toSchema()] })] }),
      new asn1js.Integer({ valueHex: leaf.serialNumber.valueBlock.valueHexView }),
    ],
  });
  const certId = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: sha256(leafDer) }), issuerSerial] });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [certId] })] });
}

function signatureAlgorithm(keyType: 'rsa' | 'ec'): pkijs.AlgorithmIdentifier {
  return keyType === 'rsa'
    ? new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256WithRsa, algorithmParams: new asn1js.Null() })
    : new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSha256 });
}
