// The PDF/A rules about the XMP packet (ISO 19005-1 6.7, -2 6.6.2): it is there, unfiltered for
// part 1, names the level claimed, and agrees with the document information dictionary, key by
// key, dates as the same instant. Read with patterns that know the usual serialisations of RDF
// (element, attribute, rdf:Alt/Seq/Bag), which is what validators accept too.

import { PDFDict, PDFHexString, PDFName, PDFRawStream, PDFString, decodePDFRawStream, type PDFDocument } from '@cantoo/pdf-lib';
import type { PdfALevelFacts } from './pdf-a-options.ts';

export interface RuleResult {
  rule: string;
  passed: boolean;
  detail?: string;
}

/** The XMP rules' results. */
export function checkXmp(doc: PDFDocument, facts: PdfALevelFacts): RuleResult[] {
  const stream = doc.catalog.lookup(PDFName.of('Metadata'));
  if (!(stream instanceof PDFRawStream)) {
    const detail = 'the catalog has no Metadata stream';
    return ['xmp-metadata', 'xmp-identification', 'xmp-info-agreement'].map((rule) => ({ rule, passed: false, detail }));
  }
  const filtered = stream.dict.has(PDFName.of('Filter'));
  const packet = Buffer.from(filtered ? decodePDFRawStream(stream).decode() : stream.contents).toString('utf8');
  const metadata: RuleResult = {
    rule: 'xmp-metadata',
    passed: stream.dict.lookup(PDFName.of('Subtype')) === PDFName.of('XML') && !(facts.part === 1 && filtered) && /<x:xmpmeta\b/.test(packet),
    detail: 'the Metadata stream is an unfiltered (part 1) XMP packet of Subtype XML',
  };
  const part = xmpValue(packet, 'pdfaid', 'part');
  const conformance = xmpValue(packet, 'pdfaid', 'conformance');
  const identification: RuleResult = {
    rule: 'xmp-identification',
    passed: part === String(facts.part) && conformance?.toUpperCase() === facts.conformance,
    detail: `pdfaid:part ${part ?? 'missing'}, pdfaid:conformance ${conformance ?? 'missing'} (claimed ${facts.level})`,
  };
  return [metadata, identification, agreement(doc, packet)];
}

const MIRRORS: [info: string, prefix: string, name: string][] = [
  ['Title', 'dc', 'title'],
  ['Author', 'dc', 'creator'],
  ['Subject', 'dc', 'description'],
  ['Keywords', 'pdf', 'Keywords'],
  ['Creator', 'xmp', 'CreatorTool'],
  ['Producer', 'pdf', 'Producer'],
];

function agreement(doc: PDFDocument, packet: string): RuleResult {
  const info = doc.context.lookup(doc.context.trailerInfo.Info);
  const mismatches: string[] = [];
  if (info instanceof PDFDict) {
    for (const [key, prefix, name] of MIRRORS) {
      const value = textOf(info.lookup(PDFName.of(key)));
      if (value === undefined) continue;
      const mirrored = xmpValue(packet, prefix, name);
      if (mirrored !== value) mismatches.push(`${key} "${value}" vs ${prefix}:${name} ${mirrored === undefined ? 'missing' : `"${mirrored}"`}`);
    }
    for (const [key, name] of [
      ['CreationDate', 'CreateDate'],
      ['ModDate', 'ModifyDate'],
    ] as const) {
      const value = textOf(info.lookup(PDFName.of(key)));
      if (value === undefined) continue;
      const instant = infoInstant(value);
      const mirrored = xmpValue(packet, 'xmp', name);
      if (instant === undefined || mirrored === undefined || Date.parse(mirrored) !== instant)
        mismatches.push(`${key} ${value} vs xmp:${name} ${mirrored ?? 'missing'}`);
    }
  }
  return {
    rule: 'xmp-info-agreement',
    passed: mismatches.length === 0,
    detail: mismatches.length ? mismatches.join('; ') : 'every document information entry has the same value in the XMP',
  };
}

function textOf(value: unknown): string | undefined {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined;
}

/** D:YYYYMMDDHHmmSS with an optional offset (Z, +HH'mm', -HH'mm'), as an instant. */
export function infoInstant(text: string): number | undefined {
  const match = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(\d{2})?'?(\d{2})?'?)?$/.exec(text.trim());
  if (!match) return undefined;
  const [, year, month = '01', day = '01', hour = '00', minute = '00', second = '00', sign, offsetHours = '00', offsetMinutes = '00'] = match;
  const utc = Date.UTC(+year!, +month - 1, +day, +hour, +minute, +second);
  if (!sign || sign === 'Z' || sign === 'z') return utc;
  const offset = (+offsetHours * 60 + +offsetMinutes) * 60_000;
  return sign === '+' ? utc - offset : utc + offset;
}

/** A simple property's value, or the first item (x-default for an rdf:Alt) of a container. */
export function xmpValue(packet: string, prefix: string, name: string): string | undefined {
  const attribute = new RegExp(`\\s${prefix}:${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(packet);
  if (attribute) return unescapeXml(attribute[2] ?? attribute[3] ?? '');
  const element = new RegExp(`<${prefix}:${name}(\\s[^>]*)?>([\\s\\S]*?)</${prefix}:${name}>`).exec(packet);
  if (!element) return undefined;
  const body = element[2]!;
  if (!/<rdf:(Alt|Seq|Bag)\b/.test(body)) return unescapeXml(body.trim());
  const items = [...body.matchAll(/<rdf:li(\s[^>]*)?>([\s\S]*?)<\/rdf:li>/g)];
  const chosen = items.find((item) => /xml:lang\s*=\s*["']x-default["']/.test(item[1] ?? '')) ?? items[0];
  return chosen ? unescapeXml(chosen[2]!.trim()) : undefined;
}

function unescapeXml(text: string): string {
  return text
    .replace(/&#x([0-9a-fA-F]+);/g, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
