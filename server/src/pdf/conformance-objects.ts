// The checker's rules that look at every object of the file, or at its raw bytes: the header and
// the end of the file, JavaScript, forbidden actions and trigger events, LZW and external streams,
// annotations, PostScript, interactive forms, device CMYK under an RGB intent, and transparency
// and object streams for part 1.

import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, PDFStream, decodePDFRawStream, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import type { RuleResult } from './conformance-xmp.ts';
import { FORBIDDEN_ACTIONS } from './pdf-a.ts';
import type { PdfALevelFacts } from './pdf-a-options.ts';

/** The header (%PDF-1.n and a comment of four bytes over 127) and nothing after the last %%EOF but an end of line. */
export function checkFileRules(bytes: Uint8Array): RuleResult[] {
  const head = Buffer.from(bytes.subarray(0, 32)).toString('latin1');
  const header = /^%PDF-1\.[0-7]\r?\n?%[\x80-\xff]{4}/.test(head.replace(/^(%PDF-1\.\d)\r\n/, '$1\n'));
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 64))).toString('latin1');
  const eof = /%%EOF(\r\n|\r|\n)?$/.test(tail);
  return [
    { rule: 'file-header', passed: header, detail: 'the file starts with %PDF-1.n and a comment line of four bytes over 127' },
    { rule: 'file-trailer', passed: eof, detail: 'nothing follows the last %%EOF but an end of line' },
  ];
}

const FORBIDDEN_ANNOTATIONS = new Set(['Sound', 'Movie', 'Screen', '3D', 'RichMedia']);
const PART1_BLEND = new Set(['Normal', 'Compatible']);

/** Walks every object once and reports the rules over them. */
export function checkObjects(doc: PDFDocument, facts: PdfALevelFacts): RuleResult[] {
  const found = {
    javascript: [] as string[],
    actions: [] as string[],
    triggers: 0,
    lzw: 0,
    external: 0,
    postscript: 0,
    transparency: [] as string[],
    objectStreams: 0,
    cmyk: 0,
    interpolate: 0,
  };
  const annotations: string[] = [];
  const seen = new Set<PDFObject>();
  const visitDict = (dict: PDFDict, depth: number) => {
    if (seen.has(dict) || depth > 64) return;
    seen.add(dict);
    const get = (key: string) => dict.get(PDFName.of(key));
    const kind = get('S');
    if (get('JS') !== undefined || kind === PDFName.of('JavaScript')) found.javascript.push('a JavaScript action');
    else if (kind instanceof PDFName && FORBIDDEN_ACTIONS.has(kind.decodeText()) && (get('Type') === PDFName.of('Action') || isActionValue(dict)))
      found.actions.push(kind.decodeText());
    if (get('AA') !== undefined) found.triggers++;
    if (get('Type') === PDFName.of('Annot') || (get('Subtype') !== undefined && get('Rect') !== undefined && get('Type') === undefined))
      annotations.push(...annotationProblems(dict));
    if (get('Subtype') === PDFName.of('PS') || get('PS') !== undefined) found.postscript++;
    if (get('Interpolate') !== undefined && String(get('Interpolate')) === 'true') found.interpolate++;
    if (get('ColorSpace') === PDFName.of('DeviceCMYK') || get('CS') === PDFName.of('DeviceCMYK')) found.cmyk++;
    if (facts.part === 1) transparencyOf(dict, found.transparency);
    for (const [key, value] of dict.entries()) {
      if (key === PDFName.of('Parent') || key === PDFName.of('P')) continue;
      visit(value, depth + 1);
    }
  };
  const visit = (value: PDFObject | undefined, depth: number) => {
    if (value instanceof PDFDict) visitDict(value, depth);
    else if (value instanceof PDFArray) for (const item of value.asArray()) visit(item, depth + 1);
  };
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFStream) {
      const filters = object.dict.get(PDFName.of('Filter'));
      if (String(filters ?? '').includes('LZWDecode')) found.lzw++;
      if (['F', 'FFilter', 'FDecodeParms'].some((key) => object.dict.has(PDFName.of(key)))) found.external++;
      if (object.dict.get(PDFName.of('Type')) === PDFName.of('ObjStm') || object.dict.get(PDFName.of('Type')) === PDFName.of('XRef')) found.objectStreams++;
      visitDict(object.dict, 0);
    } else visit(object, 0);
  }
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  if (names?.has(PDFName.of('JavaScript'))) found.javascript.push('a JavaScript name tree');
  // Our OutputIntent is sRGB: CMYK operators in page content have no intent to resolve against.
  const cmykInContent = doc.getPages().some((page) => usesCmykOperators(page.node));
  const form = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const formProblems = [
    form?.has(PDFName.of('XFA')) && 'an XFA form',
    String(form?.get(PDFName.of('NeedAppearances'))) === 'true' && 'NeedAppearances true',
  ].filter(Boolean);
  const rule = (name: string, passed: boolean, detail: string): RuleResult => ({ rule: name, passed, detail });
  const results = [
    rule('no-javascript', found.javascript.length === 0, found.javascript.length ? [...new Set(found.javascript)].join(', ') : 'no JavaScript'),
    rule(
      'no-forbidden-actions',
      found.actions.length === 0,
      found.actions.length ? `actions ${[...new Set(found.actions)].join(', ')}` : 'no launch, sound, movie or other forbidden actions',
    ),
    rule('no-additional-actions', found.triggers === 0, `${found.triggers} additional-action (AA) dictionaries`),
    rule('no-lzw', found.lzw === 0, `${found.lzw} LZW-compressed streams`),
    rule('no-external-streams', found.external === 0, `${found.external} streams with content in external files`),
    rule('no-postscript', found.postscript === 0, `${found.postscript} PostScript XObjects or fragments`),
    rule(
      'annotations',
      annotations.length === 0,
      annotations.length ? [...new Set(annotations)].join('; ') : 'every annotation is allowed, printed and visible',
    ),
    rule('interactive-form', formProblems.length === 0, formProblems.length ? formProblems.join(', ') : 'no XFA, appearances present'),
    rule('no-interpolation', found.interpolate === 0, `${found.interpolate} images asking for interpolation`),
    rule(
      'device-colour',
      found.cmyk === 0 && !cmykInContent,
      found.cmyk || cmykInContent ? 'DeviceCMYK under an RGB output intent' : 'device colours agree with the output intent',
    ),
  ];
  if (facts.part === 1)
    results.push(
      rule(
        'no-transparency',
        found.transparency.length === 0,
        found.transparency.length ? [...new Set(found.transparency)].join(', ') : 'no transparency (PDF/A-1)',
      ),
      rule('no-object-streams', found.objectStreams === 0, `${found.objectStreams} object or cross-reference streams (PDF/A-1 is PDF 1.4)`),
    );
  return results;
}

function isActionValue(dict: PDFDict): boolean {
  return (
    dict.has(PDFName.of('S')) &&
    !dict.has(PDFName.of('Type')) &&
    (dict.has(PDFName.of('F')) || dict.has(PDFName.of('Win')) || dict.has(PDFName.of('Sound')) || dict.has(PDFName.of('Movie')))
  );
}

function annotationProblems(annot: PDFDict): string[] {
  const subtype = annot.get(PDFName.of('Subtype'));
  const name = subtype instanceof PDFName ? subtype.decodeText() : 'unknown';
  if (FORBIDDEN_ANNOTATIONS.has(name)) return [`a ${name} annotation`];
  if (name === 'Popup') return [];
  const flags = annot.get(PDFName.of('F'));
  const value = flags instanceof PDFNumber ? flags.asNumber() : 0;
  if ((value & 4) === 0) return [`a ${name} annotation that does not print`];
  if ((value & (1 | 2 | 32)) !== 0) return [`a hidden ${name} annotation`];
  return [];
}

function transparencyOf(dict: PDFDict, found: string[]): void {
  const smask = dict.get(PDFName.of('SMask'));
  if (smask !== undefined && smask !== PDFName.of('None')) found.push('a soft mask');
  for (const key of ['CA', 'ca']) {
    const alpha = dict.get(PDFName.of(key));
    if (alpha instanceof PDFNumber && alpha.asNumber() !== 1) found.push(`opacity ${key} ${alpha.asNumber()}`);
  }
  const blend = dict.get(PDFName.of('BM'));
  if (blend instanceof PDFName && !PART1_BLEND.has(blend.decodeText())) found.push(`blend mode ${blend.decodeText()}`);
  const group = dict.get(PDFName.of('Group'));
  if (group instanceof PDFDict && group.get(PDFName.of('S')) === PDFName.of('Transparency')) found.push('a transparency group');
}

function usesCmykOperators(page: PDFDict): boolean {
  const contents = page.lookup(PDFName.of('Contents'));
  const streams = contents instanceof PDFArray ? contents.asArray().map((item) => page.context.lookup(item)) : [contents];
  return streams.some((stream) => {
    if (!(stream instanceof PDFRawStream)) return false;
    const text = Buffer.from(stream.dict.has(PDFName.of('Filter')) ? decodePDFRawStream(stream).decode() : stream.contents).toString('latin1');
    return CMYK_OPERATOR.test(text);
  });
}

/**
 * `c m y k k` or `K`: four numbers, then the operator. Written operator first, its operands in a
 * lookbehind, so the engine tries only where a k stands: the same matches as the plain pattern
 * `(^|\s)num\s+num\s+num\s+num\s+[kK](?=\s)`, which tried every position of a page's content
 * (about 1 ms of the PDF/A step's check on the bench invoice; now microseconds).
 */
const CMYK_OPERATOR = /[kK](?<=(?:^|\s)-?[\d.]+\s+-?[\d.]+\s+-?[\d.]+\s+-?[\d.]+\s+[kK])(?=\s)/;
