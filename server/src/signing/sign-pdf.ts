// Signs a PDF: the placeholder update (placeholder.ts, on the signing worker), the CMS over its
// digest (cms.ts, with a Signer that may be a token), the timestamp for B-T (tsa.ts), and the
// CMS's hex written into the reserved zeros. Knows nothing of keys, stores or HTTP.

import { encodeCms, signDigest } from './cms.ts';
import { SignInputError } from './errors.ts';
import type { PlaceholderOptions, Prepared, VisibleSignature } from './placeholder.ts';
import type { Signer } from './signer.ts';
import { requestTimestamp, type Timestamp, type TsaConfig } from './tsa.ts';

export type PadesLevel = 'B-B' | 'B-T';

export interface SignPdfOptions {
  level: PadesLevel;
  reason?: string;
  location?: string;
  contact?: string;
  name?: string;
  visible?: VisibleSignature;
  /** Needed for B-T. */
  tsa?: TsaConfig;
}

export interface SignedPdf {
  pdf: Uint8Array;
  timestamp?: Timestamp;
}

/** Room for the CMS: the chain, the signature, and for B-T a token with the TSA's own chain. */
function reserveFor(signer: Signer, level: PadesLevel): number {
  const chain = signer.chain.reduce((sum, cert) => sum + cert.byteLength, 0);
  return 4096 + chain + (level === 'B-T' ? 12288 : 0);
}

export async function signPdf(
  pdf: Uint8Array,
  signer: Signer,
  options: SignPdfOptions,
  prepare: (pdf: Uint8Array, options: PlaceholderOptions) => Promise<Prepared>,
): Promise<SignedPdf> {
  if (options.level === 'B-T' && !options.tsa)
    throw new SignInputError('level B-T needs a time-stamping authority; the operator has set no TSA_URL', 'options.sign.level');
  const reserve = reserveFor(signer, options.level);
  const prepared = await prepare(pdf, {
    reason: options.reason,
    location: options.location,
    contact: options.contact,
    name: options.name,
    visible: options.visible,
    reserve,
  });
  const cms = await signDigest(prepared.digest, signer);
  const timestamp = options.level === 'B-T' ? await requestTimestamp(options.tsa!, cms.signature) : undefined;
  const der = encodeCms(cms, timestamp?.token);
  return { pdf: embed(prepared, der), timestamp };
}

/** Writes the CMS's hex into the reserved zeros (the rest stays zero, as readers expect). */
export function embed(prepared: Prepared, der: Uint8Array): Uint8Array {
  const hex = Buffer.from(der).toString('hex');
  if (hex.length > prepared.contentsLength - 2)
    throw new Error(`the signature (${der.byteLength} bytes) does not fit the ${(prepared.contentsLength - 2) / 2} reserved`);
  const out = Buffer.from(prepared.pdf);
  out.write(hex, prepared.contentsAt + 1, 'latin1');
  return out;
}
