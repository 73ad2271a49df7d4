// The document-level PDF/UA-1 conditions: MarkInfo (ISO 14289-1 7.1), Suspects (01-007), the XMP
// metadata with the PDF/UA identifier and a title (06-001..003), DisplayDocTitle (07-001, 07-002)
// and the document's natural language (11-006).

import { PDFName, PDFRawStream, type PDFDocument } from '@cantoo/pdf-lib';
import { boolAt, dictAt, streamBytes, textAt } from '../pdf-values.ts';
import type { UaCondition, UaFinding } from './conditions.ts';

export const DOCUMENT_CONDITIONS: UaCondition[] = ['UA1:7.1-marked', '01-007', '06-001', '06-002', '06-003', '07-001', '07-002', '11-006'];

/** A language tag as BCP 47 writes it: a primary language and optional subtags (no POSIX locale suffixes). */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

export function checkDocument(doc: PDFDocument): UaFinding[] {
  const findings: UaFinding[] = [];
  const { catalog } = doc;
  const markInfo = dictAt(doc, catalog, 'MarkInfo');
  if (boolAt(doc, markInfo, 'Marked') !== true) findings.push({ condition: 'UA1:7.1-marked', detail: 'MarkInfo /Marked is not true' });
  if (boolAt(doc, markInfo, 'Suspects') === true) findings.push({ condition: '01-007', detail: 'MarkInfo /Suspects is true' });
  findings.push(...checkMetadata(doc));
  const preferences = dictAt(doc, catalog, 'ViewerPreferences');
  const display = boolAt(doc, preferences, 'DisplayDocTitle');
  if (display === undefined) findings.push({ condition: '07-001', detail: 'ViewerPreferences has no DisplayDocTitle' });
  else if (!display) findings.push({ condition: '07-002', detail: 'DisplayDocTitle is false' });
  const lang = textAt(doc, catalog, 'Lang');
  if (!lang || !LANGUAGE_TAG.test(lang))
    findings.push({ condition: '11-006', detail: lang ? `the catalog Lang "${lang}" is not a language tag` : 'the catalog has no Lang' });
  return findings;
}

function checkMetadata(doc: PDFDocument): UaFinding[] {
  const stream = doc.catalog.lookup(PDFName.of('Metadata'));
  const bytes = stream instanceof PDFRawStream ? streamBytes(stream) : undefined;
  if (!bytes) return [{ condition: '06-001', detail: 'the catalog has no readable Metadata stream' }];
  const packet = Buffer.from(bytes).toString('utf8');
  const findings: UaFinding[] = [];
  const part = xmpProperty(packet, 'pdfuaid', 'part');
  if (part !== '1') findings.push({ condition: '06-002', detail: part ? `pdfuaid:part is ${part}, not 1` : 'no pdfuaid:part' });
  const title = /<dc:title\b[^>]*>([\s\S]*?)<\/dc:title>/
    .exec(packet)?.[1]
    ?.replace(/<[^>]+>/g, '')
    .trim();
  if (!title) findings.push({ condition: '06-003', detail: 'no dc:title, or an empty one' });
  return findings;
}

/** A simple property's value, written as an element or as an attribute of rdf:Description. */
export function xmpProperty(packet: string, prefix: string, name: string): string | undefined {
  const element = new RegExp(`<${prefix}:${name}\\b[^>]*>\\s*([^<]*?)\\s*</${prefix}:${name}>`).exec(packet)?.[1];
  return element ?? new RegExp(`\\s${prefix}:${name}\\s*=\\s*["']([^"']*)["']`).exec(packet)?.[1];
}
