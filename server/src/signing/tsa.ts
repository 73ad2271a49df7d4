// An RFC 3161 client: asks the operator's time-stamping authority for a token over the signature
// value (B-T). The address comes from TSA_URL and must be on TSA_ALLOW_HOSTS (the operator's list,
// not the page guard's: the TSA is a service the operator chose, often on the private network).
// No answer within the timeout, a refusal or a token over something else is a
// TimestampUnavailableError: the signature is not made and nothing is charged.

import { randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID, sha256 } from './cms.ts';
import { TimestampUnavailableError } from './errors.ts';

export interface TsaConfig {
  url: string;
  /** Hosts (host or host:port) the TSA may be on; the URL's host is checked against it at start. */
  allowHosts: string[];
  timeoutMs: number;
  /** "user:password" for HTTP basic authentication, when the TSA asks for it. */
  credentials?: string;
}

export interface Timestamp {
  token: Uint8Array;
  /** genTime of the token, ISO. */
  time: string;
  /** The TSA's name as its certificate's subject says, when the token carries it. */
  authority?: string;
}

/** Throws when the TSA's host is not on the allow-list (checked when the server starts). */
export function checkTsaConfig(config: TsaConfig): void {
  const url = new URL(config.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`TSA_URL must be http or https, not ${url.protocol}`);
  if (!config.allowHosts.includes(url.host) && !config.allowHosts.includes(url.hostname)) {
    throw new Error(`TSA_URL's host ${url.host} is not on TSA_ALLOW_HOSTS (${config.allowHosts.join(', ') || 'empty'})`);
  }
}

export async function requestTimestamp(config: TsaConfig, signature: Uint8Array): Promise<Timestamp> {
  checkTsaConfig(config);
  const imprint = sha256(signature);
  const nonce = randomBytes(8);
  nonce[0]! &= 0x7f; // a positive INTEGER
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: imprint }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    certReq: true,
  });
  const headers: Record<string, string> = { 'content-type': 'application/timestamp-query' };
  if (config.credentials) headers.authorization = `Basic ${Buffer.from(config.credentials).toString('base64')}`;
  let body: Uint8Array;
  try {
    const response = await fetch(config.url, {
      method: 'POST',
      headers,
      body: Buffer.from(request.toSchema().toBER()),
      signal: AbortSignal.timeout(config.timeoutMs),
      redirect: 'error',
    });
    if (!response.ok) throw new TimestampUnavailableError(`the time-stamping authority answered HTTP ${response.status}`);
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > 1 << 20) throw new TimestampUnavailableError('the time-stamping authority answered more than 1 MB');
    body = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof TimestampUnavailableError) throw error;
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${config.timeoutMs} ms` : (error as Error).message;
    throw new TimestampUnavailableError(`the time-stamping authority could not be reached: ${reason}`);
  }
  return readResponse(body, imprint, nonce);
}

function readResponse(body: Uint8Array, imprint: Uint8Array, nonce: Uint8Array): Timestamp {
  let response: pkijs.TimeStampResp;
  try {
    response = pkijs.TimeStampResp.fromBER(new Uint8Array(body));
  } catch {
    throw new TimestampUnavailableError('the time-stamping authority answered something that is not a timestamp response');
  }
  const status = response.status.status;
  if ((status !== 0 && status !== 1) || !response.timeStampToken) {
    throw new TimestampUnavailableError(`the time-stamping authority refused the request (status ${status})`);
  }
  const info = tokenInfo(response.timeStampToken);
  if (!info) throw new TimestampUnavailableError('the timestamp token carries no TSTInfo');
  if (Buffer.compare(Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView), Buffer.from(imprint)) !== 0) {
    throw new TimestampUnavailableError('the timestamp token is over something else');
  }
  const answeredNonce = info.nonce ? Buffer.from(info.nonce.valueBlock.valueHexView) : undefined;
  if (!answeredNonce || Buffer.compare(stripZeros(answeredNonce), stripZeros(Buffer.from(nonce))) !== 0) {
    throw new TimestampUnavailableError('the timestamp token does not answer our nonce');
  }
  const signed = new pkijs.SignedData({ schema: response.timeStampToken.content });
  const tsaCert = signed.certificates?.find((cert): cert is pkijs.Certificate => cert instanceof pkijs.Certificate);
  return {
    token: new Uint8Array(response.timeStampToken.toSchema().toBER()),
    time: info.genTime.toISOString(),
    authority: tsaCert ? nameText(tsaCert.subject) : undefined,
  };
}

/** The TSTInfo inside a timestamp token (a ContentInfo holding SignedData), or undefined. */
export function tokenInfo(token: pkijs.ContentInfo): pkijs.TSTInfo | undefined {
  const signed = new pkijs.SignedData({ schema: token.content });
  const content = signed.encapContentInfo.eContent;
  if (signed.encapContentInfo.eContentType !== OID.tstInfo || !content) return undefined;
  return pkijs.TSTInfo.fromBER(content.getValue());
}

/** "CN=..., O=..." from a pkijs name. */
export function nameText(name: pkijs.RelativeDistinguishedNames): string {
  const short: Record<string, string> = { '2.5.4.3': 'CN', '2.5.4.10': 'O', '2.5.4.11': 'OU', '2.5.4.6': 'C', '2.5.4.7': 'L', '2.5.4.8': 'ST' };
  return name.typesAndValues.map((tv) => `${short[tv.type] ?? tv.type}=${String(tv.value.valueBlock.value)}`).join(', ');
}

const stripZeros = (bytes: Buffer): Buffer => {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return bytes.subarray(i);
};
