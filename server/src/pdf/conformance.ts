// The PDF/A conformance checker: the rules of ISO 19005 that a program can decide from the file
// alone (identification, metadata agreement, OutputIntent, embedded fonts, file id, encryption,
// actions, filters, attachments, transparency for part 1, tags for level a). Runs on the PDF
// worker threads on every PDF/A output; what it cannot decide (glyph widths against the font
// programs, colour use inside content streams beyond device CMYK, ...) is listed in docs/api.md.

import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFStream, decodePDFRawStream } from '@cantoo/pdf-lib';
import { checkXmp, type RuleResult } from './conformance-xmp.ts';
import { allowsAnyAttachment, needsTags, needsUnicode, pdfALevelOf, type PdfALevelFacts } from './pdf-a-options.ts';
import { embeddedFileSpecs, usedFonts } from './pdf-objects.ts';
import { checkFileRules, checkObjects } from './conformance-objects.ts';

export type { RuleResult };

export interface ConformanceReport {
  level: string;
  /** "quire": this checker; the service adds veraPDF's verdict beside it when configured. */
  checker: 'quire';
  rules: number;
  failed: { rule: string; detail: string }[];
  passed: boolean;
}

/** A PDF/A output that failed a rule: never returned as that level (docs/api.md#pdfa, 422 conformance_failed). */
export class ConformanceFailedError extends Error {
  override readonly name = 'ConformanceFailedError';
  constructor(readonly report: ConformanceReport & { verapdf?: { ran: boolean; passed: boolean; detail: string } }) {
    const failed = report.failed.map((entry) => `${entry.rule} (${entry.detail})`);
    if (report.verapdf?.ran && !report.verapdf.passed) failed.push(`veraPDF: ${report.verapdf.detail}`);
    super(`the result is not ${report.level}: ${failed.join('; ')}`);
  }
}

/** Checks the bytes against the level's rules ("PDF/A-2b" or "2b"). */
export async function checkConformance(bytes: Uint8Array, levelName: string): Promise<ConformanceReport> {
  const facts = pdfALevelOf(levelName);
  if (!facts) throw new Error(`unknown PDF/A level ${levelName}`);
  const results = await resultsFor(bytes, facts);
  const failed = results.filter((result) => !result.passed).map((result) => ({ rule: result.rule, detail: result.detail ?? '' }));
  return { level: facts.level, checker: 'quire', rules: results.length, failed, passed: failed.length === 0 };
}

async function resultsFor(bytes: Uint8Array, facts: PdfALevelFacts): Promise<RuleResult[]> {
  const fileRules = checkFileRules(bytes);
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  } catch (error) {
    return [...fileRules, { rule: 'parse', passed: false, detail: `the file does not parse: ${(error as Error).message}` }];
  }
  return [
    ...fileRules,
    { rule: 'no-encryption', passed: !doc.context.trailerInfo.Encrypt, detail: 'the trailer has no Encrypt entry' },
    fileId(doc),
    ...checkXmp(doc, facts),
    ...outputIntent(doc, facts),
    ...fonts(doc, facts),
    ...checkObjects(doc, facts),
    ...attachments(doc, facts),
    ...(needsTags(facts) ? [tagged(doc)] : []),
  ];
}

function fileId(doc: PDFDocument): RuleResult {
  const id = doc.context.trailerInfo.ID;
  return { rule: 'file-id', passed: id instanceof PDFArray && id.size() === 2, detail: 'the trailer has an ID of two strings' };
}

const COMPONENTS: Record<string, number> = { 'RGB ': 3, GRAY: 1, CMYK: 4 };

function outputIntent(doc: PDFDocument, facts: PdfALevelFacts): RuleResult[] {
  const intents = doc.catalog.lookupMaybe(PDFName.of('OutputIntents'), PDFArray);
  const pdfa = (intents?.asArray() ?? [])
    .map((entry) => doc.context.lookup(entry))
    .filter((intent): intent is PDFDict => intent instanceof PDFDict && intent.lookup(PDFName.of('S')) === PDFName.of('GTS_PDFA1'));
  const profiles = new Set(pdfa.map((intent) => intent.get(PDFName.of('DestOutputProfile'))?.toString()));
  const present: RuleResult = {
    rule: 'output-intent',
    passed: pdfa.length >= 1 && profiles.size === 1 && !profiles.has(undefined),
    detail: `${pdfa.length} GTS_PDFA1 output intents with ${profiles.size} distinct profiles (one is needed, with a DestOutputProfile)`,
  };
  const stream = pdfa[0]?.lookup(PDFName.of('DestOutputProfile'));
  let profileRule: RuleResult = { rule: 'output-intent-profile', passed: false, detail: 'no ICC profile to read' };
  if (stream instanceof PDFRawStream) {
    const profile = Buffer.from(stream.dict.has(PDFName.of('Filter')) ? decodePDFRawStream(stream).decode() : stream.contents);
    const space = profile.subarray(16, 20).toString('latin1');
    const deviceClass = profile.subarray(12, 16).toString('latin1');
    const major = profile[8] ?? 0;
    const n = stream.dict.lookup(PDFName.of('N'));
    const problems = [
      profile.subarray(36, 40).toString('latin1') !== 'acsp' && 'not an ICC profile',
      !(n instanceof PDFNumber && n.asNumber() === COMPONENTS[space]) && `N ${n} does not match the profile's ${space.trim()} colour space`,
      !['mntr', 'prtr'].includes(deviceClass) && `device class ${deviceClass} (mntr or prtr needed)`,
      facts.part === 1 && major >= 4 && `ICC version ${major} (PDF/A-1 takes version 2 profiles)`,
    ].filter(Boolean);
    profileRule = {
      rule: 'output-intent-profile',
      passed: problems.length === 0,
      detail: problems.length ? problems.join('; ') : `${space.trim()} profile, N=${COMPONENTS[space]}, ICC v${major}`,
    };
  }
  return [present, profileRule];
}

function fonts(doc: PDFDocument, facts: PdfALevelFacts): RuleResult[] {
  const missing: string[] = [];
  const noUnicode: string[] = [];
  const noCidSet: string[] = [];
  for (const font of usedFonts(doc)) {
    const subtype = font.lookup(PDFName.of('Subtype'));
    const name = String(font.lookup(PDFName.of('BaseFont')) ?? subtype);
    if (!font.has(PDFName.of('ToUnicode')) && !hasStandardEncoding(font)) noUnicode.push(name);
    // Type 3 glyphs are content streams inside the file: embedded by construction.
    if (subtype === PDFName.of('Type3')) continue;
    const descendant = font.lookupMaybe(PDFName.of('DescendantFonts'), PDFArray)?.lookup(0);
    const descriptor = (descendant instanceof PDFDict ? descendant : font).lookup(PDFName.of('FontDescriptor'));
    const embedded = descriptor instanceof PDFDict && ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor.has(PDFName.of(key)));
    if (!embedded) missing.push(name);
    if (descendant instanceof PDFDict && name.includes('+') && descriptor instanceof PDFDict && !descriptor.has(PDFName.of('CIDSet'))) noCidSet.push(name);
  }
  const results: RuleResult[] = [
    { rule: 'fonts-embedded', passed: missing.length === 0, detail: missing.length ? `not embedded: ${missing.join(', ')}` : 'every font is embedded' },
  ];
  if (facts.part === 1)
    results.push({
      rule: 'cid-set',
      passed: noCidSet.length === 0,
      detail: noCidSet.length ? `subset CID fonts without CIDSet: ${noCidSet.join(', ')}` : 'every subset CID font lists its CIDs (PDF/A-1)',
    });
  if (needsUnicode(facts))
    results.push({
      rule: 'fonts-unicode',
      passed: noUnicode.length === 0,
      detail: noUnicode.length ? `no ToUnicode map: ${noUnicode.join(', ')}` : 'every font maps its glyphs to Unicode',
    });
  return results;
}

function hasStandardEncoding(font: PDFDict): boolean {
  const encoding = font.lookup(PDFName.of('Encoding'));
  return encoding instanceof PDFName && ['WinAnsiEncoding', 'MacRomanEncoding', 'StandardEncoding'].includes(encoding.decodeText());
}

function attachments(doc: PDFDocument, facts: PdfALevelFacts): RuleResult[] {
  const specs = embeddedFileSpecs(doc);
  if (facts.part === 1) return [{ rule: 'embedded-files', passed: specs.length === 0, detail: `${specs.length} embedded files (PDF/A-1 allows none)` }];
  if (!allowsAnyAttachment(facts)) {
    const notPdfA = specs.filter(({ spec }) => !isPdfA(embeddedBytes(spec)));
    return [
      {
        rule: 'embedded-files',
        passed: notPdfA.length === 0,
        detail: notPdfA.length
          ? `not PDF/A files (PDF/A-2 embeds only those): ${notPdfA.map((entry) => entry.name).join(', ')}`
          : `${specs.length} embedded files, all PDF/A`,
      },
    ];
  }
  const associated = new Set<string>();
  for (const holder of [doc.catalog, ...doc.getPages().map((page) => page.node)])
    for (const entry of holder.lookupMaybe(PDFName.of('AF'), PDFArray)?.asArray() ?? []) associated.add(entry.toString());
  const problems = specs.flatMap(({ name, ref, spec }) => {
    const stream = (spec.lookup(PDFName.of('EF')) as PDFDict | undefined)?.lookup?.(PDFName.of('F'));
    return [
      !spec.has(PDFName.of('AFRelationship')) && `${name}: no AFRelationship`,
      !(ref && associated.has(ref.toString())) && `${name}: not listed in an /AF array`,
      !(spec.has(PDFName.of('F')) && spec.has(PDFName.of('UF'))) && `${name}: F and UF both needed`,
      !(stream instanceof PDFStream && stream.dict.has(PDFName.of('Subtype'))) && `${name}: its stream has no MIME Subtype`,
    ].filter((problem): problem is string => typeof problem === 'string');
  });
  return [
    {
      rule: 'embedded-files',
      passed: problems.length === 0,
      detail: problems.length ? problems.join('; ') : `${specs.length} embedded files, each an associated file with its relationship`,
    },
  ];
}

function embeddedBytes(spec: PDFDict): Uint8Array | undefined {
  const stream = (spec.lookup(PDFName.of('EF')) as PDFDict | undefined)?.lookup?.(PDFName.of('F'));
  if (!(stream instanceof PDFRawStream)) return undefined;
  return stream.dict.has(PDFName.of('Filter')) ? decodePDFRawStream(stream).decode() : stream.contents;
}

function isPdfA(bytes: Uint8Array | undefined): boolean {
  if (!bytes) return false;
  const text = Buffer.from(bytes).toString('latin1');
  return text.startsWith('%PDF-') && /pdfaid:part\s*(=\s*["']|>)\s*[123]/.test(text);
}

function tagged(doc: PDFDocument): RuleResult {
  const mark = doc.catalog.lookup(PDFName.of('MarkInfo'));
  const marked = mark instanceof PDFDict && String(mark.lookup(PDFName.of('Marked'))) === 'true';
  const tree = doc.catalog.has(PDFName.of('StructTreeRoot'));
  return { rule: 'tagged', passed: marked && tree, detail: `MarkInfo /Marked ${marked}, StructTreeRoot ${tree ? 'present' : 'missing'}` };
}
