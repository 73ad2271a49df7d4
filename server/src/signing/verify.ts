// POST /v1/pdf/verify's work (on the signing worker): every signature field of a PDF, what its
// byte range covers (the whole file, or the file up to its revision), what was changed after it
// (pages, annotations, other signatures, other objects), and the CMS checks of cms-verify.ts.

import { X509Certificate } from 'node:crypto';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFString, PDFRef } from '@cantoo/pdf-lib';
import { checkCms, type CmsReport } from './cms-verify.ts';
import { SignInputError } from './errors.ts';

export interface VerifyContext {
  /** PEM roots the operator trusts (TRUST_STORE). */
  trustPem: string;
}

export type Change = 'pages_added' | 'pages_removed' | 'annotations_changed' | 'signature_added' | 'other';

export interface SignatureReport extends CmsReport {
  field: string;
  sub_filter?: string;
  reason?: string;
  location?: string;
  contact?: string;
  /** /M: the time the signer claims (not proven; the timestamp is). */
  claimed_signing_time?: string;
  level?: 'B-B' | 'B-T' | 'not PAdES';
  byte_range: number[];
  /** whole_file: nothing after it; revision: the file up to an incremental update's end; bad: a gap other than /Contents or past the end. */
  coverage: 'whole_file' | 'revision' | 'bad';
  /** What later incremental updates changed, empty when none. */
  changed_after: Change[];
  /** The signature holds: integrity valid, chain trusted, valid at signing time, nothing but signatures added after. */
  valid: boolean;
}

export async function verifySignatures(pdf: Uint8Array, context: VerifyContext): Promise<SignatureReport[]> {
  const doc = await load(pdf);
  const roots = (context.trustPem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((pem) => new X509Certificate(pem));
  const fields = signatureFields(doc);
  const reports: SignatureReport[] = [];
  for (const { name, sig } of fields) {
    const range = (sig.lookupMaybe(PDFName.of('ByteRange'), PDFArray)?.asArray() ?? []).map((n) => (n instanceof PDFNumber ? n.asNumber() : -1));
    const contents = sig.get(PDFName.of('Contents'));
    const der = contents instanceof PDFHexString || contents instanceof PDFString ? contents.asBytes() : new Uint8Array();
    const coverage = coverageOf(pdf, range);
    const claimed = text(sig, 'M');
    const claimedDate = claimed ? PDFString.of(claimed).decodeDate() : undefined;
    const covered = coverage === 'bad' ? [] : [pdf.subarray(range[0]!, range[0]! + range[1]!), pdf.subarray(range[2]!, range[2]! + range[3]!)];
    const cms =
      coverage === 'bad'
        ? ({
            integrity: 'unreadable',
            problem: 'the byte range does not cover the file around /Contents',
            signing_certificate_v2: false,
            chain: [],
            trusted: false,
          } satisfies CmsReport)
        : checkCms(der, covered, claimedDate, roots);
    const changed = coverage === 'revision' ? await changesAfter(pdf.subarray(0, range[2]! + range[3]!), doc) : [];
    const subFilter = sig.lookupMaybe(PDFName.of('SubFilter'), PDFName)?.decodeText();
    reports.push({
      field: name,
      sub_filter: subFilter,
      reason: text(sig, 'Reason'),
      location: text(sig, 'Location'),
      contact: text(sig, 'ContactInfo'),
      claimed_signing_time: claimedDate?.toISOString(),
      level: subFilter !== 'ETSI.CAdES.detached' || !cms.signing_certificate_v2 ? 'not PAdES' : cms.timestamp?.valid ? 'B-T' : 'B-B',
      byte_range: range,
      coverage,
      changed_after: changed,
      ...cms,
      valid:
        cms.integrity === 'valid' &&
        cms.trusted &&
        cms.valid_at_signing_time !== false &&
        coverage !== 'bad' &&
        changed.every((change) => change === 'signature_added'),
    });
  }
  return reports;
}

async function load(pdf: Uint8Array): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  } catch (error) {
    throw new SignInputError(`the file is not a PDF that reads: ${(error as Error).message}`, 'pdf');
  }
}

function signatureFields(doc: PDFDocument): { name: string; sig: PDFDict }[] {
  const form = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const out: { name: string; sig: PDFDict }[] = [];
  const walk = (items: PDFArray | undefined, prefix: string, depth: number) => {
    if (!items || depth > 16) return;
    for (const item of items.asArray()) {
      const field = doc.context.lookup(item);
      if (!(field instanceof PDFDict)) continue;
      const partial = field.get(PDFName.of('T'));
      const name = [prefix, partial instanceof PDFString || partial instanceof PDFHexString ? partial.decodeText() : ''].filter(Boolean).join('.');
      const sig = field.lookupMaybe(PDFName.of('V'), PDFDict);
      if (field.lookupMaybe(PDFName.of('FT'), PDFName)?.decodeText() === 'Sig' && sig) out.push({ name, sig });
      walk(field.lookupMaybe(PDFName.of('Kids'), PDFArray), name, depth + 1);
    }
  };
  walk(form?.lookupMaybe(PDFName.of('Fields'), PDFArray), '', 0);
  return out;
}

function text(dict: PDFDict, key: string): string | undefined {
  const value = dict.get(PDFName.of(key));
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined;
}

/** Whether the two ranges start at 0, skip exactly the /Contents hex string, and end at a revision's end. */
function coverageOf(pdf: Uint8Array, range: number[]): SignatureReport['coverage'] {
  if (range.length !== 4 || range.some((n) => !Number.isInteger(n) || n < 0)) return 'bad';
  const [start, first, second, length] = range as [number, number, number, number];
  const end = second + length;
  if (start !== 0 || end > pdf.byteLength || pdf[first] !== 0x3c /* < */ || pdf[second - 1] !== 0x3e /* > */) return 'bad';
  if (end === pdf.byteLength) return 'whole_file';
  const tail = Buffer.from(pdf.subarray(Math.max(0, end - 8), end)).toString('latin1');
  return /%%EOF\s*$/.test(tail) ? 'revision' : 'bad';
}

/** What the updates after a signed revision changed, by comparing that revision with the whole file. */
async function changesAfter(revision: Uint8Array, now: PDFDocument): Promise<Change[]> {
  let then: PDFDocument;
  try {
    then = await PDFDocument.load(revision, { updateMetadata: false, ignoreEncryption: true });
  } catch {
    return ['other'];
  }
  const changes = new Set<Change>();
  const [pagesThen, pagesNow] = [then.getPageCount(), now.getPageCount()];
  if (pagesNow > pagesThen) changes.add('pages_added');
  if (pagesNow < pagesThen) changes.add('pages_removed');
  const sigsThen = signatureFields(then).length;
  const sigsNow = signatureFields(now).length;
  if (sigsNow > sigsThen) changes.add('signature_added');
  const pages = Math.min(pagesThen, pagesNow);
  for (let i = 0; i < pages; i++) {
    const count = (doc: PDFDocument) => doc.getPage(i).node.lookupMaybe(PDFName.of('Annots'), PDFArray)?.size() ?? 0;
    // A new signature's widget is an annotation too: only other annotations count as changes.
    if (count(now) - count(then) > (sigsNow > sigsThen ? sigsNow - sigsThen : 0) || count(now) < count(then)) changes.add('annotations_changed');
    if (contentOf(then, i) !== contentOf(now, i)) changes.add('other');
  }
  if (changes.size === 0) changes.add('other');
  return [...changes];
}

function contentOf(doc: PDFDocument, index: number): string {
  const contents = doc.getPage(index).node.get(PDFName.of('Contents'));
  return contents instanceof PDFRef ? contents.toString() : String(contents);
}
