// The PDF/UA-1 checker (issue 42): parses the file once with pdf-lib, decides the conditions of
// conditions.ts and reports each failure by its Matterhorn number and page, with what a person
// must still look at. Like the PDF/A checker (../conformance.ts), it judges the finished bytes.

import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { ANNOTATION_CONDITIONS, checkAnnotations } from './check-annotations.ts';
import { checkContent, CONTENT_CONDITIONS } from './check-content.ts';
import { checkDocument, DOCUMENT_CONDITIONS } from './check-document.ts';
import { checkFonts, FONT_CONDITIONS } from './check-fonts.ts';
import { checkStructure, STRUCTURE_CONDITIONS } from './check-structure.ts';
import { MAX_FINDINGS_PER_CONDITION, type NeedsPerson, type UaFinding, type UaReport } from './conditions.ts';
import { pageIndexOf, readStructureTree, type StructureTree } from './structure-tree.ts';

export type { UaReport, UaFinding, NeedsPerson };

/** Every condition decided, once: the report's `checks`. */
export const CHECKED_CONDITIONS = [...DOCUMENT_CONDITIONS, ...CONTENT_CONDITIONS, ...STRUCTURE_CONDITIONS, ...ANNOTATION_CONDITIONS, ...FONT_CONDITIONS];

export class UaUnreadableError extends Error {
  override readonly name = 'UaUnreadableError';
}

/** Checks PDF bytes against PDF/UA-1's machine-checkable conditions. */
export async function checkUa(bytes: Uint8Array): Promise<UaReport> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  } catch (error) {
    throw new UaUnreadableError(`the file does not parse: ${(error as Error).message}`);
  }
  return checkUaDocument(doc);
}

/** The same on an opened document (the fixer checks what it made without parsing it again). */
export function checkUaDocument(doc: PDFDocument): UaReport {
  const pageIndex = pageIndexOf(doc);
  const tree = readStructureTree(doc, pageIndex);
  const tagged = tree.root !== undefined && doc.catalog.has(PDFName.of('StructTreeRoot'));
  const findings = [...checkDocument(doc), ...checkContent(doc, tagged), ...checkStructure(doc, tree), ...checkAnnotations(doc, tree), ...checkFonts(doc)];
  const failed = bounded(findings);
  return { level: 'PDF/UA-1', checker: 'quire', checks: CHECKED_CONDITIONS.length, failed, needs_person: needsPerson(tree), passed: failed.length === 0 };
}

function bounded(findings: UaFinding[]): UaFinding[] {
  const counts = new Map<string, number>();
  const kept: UaFinding[] = [];
  for (const finding of findings) {
    const count = (counts.get(finding.condition) ?? 0) + 1;
    counts.set(finding.condition, count);
    if (count <= MAX_FINDINGS_PER_CONDITION) kept.push(finding);
  }
  for (const [condition, count] of counts) {
    if (count > MAX_FINDINGS_PER_CONDITION)
      kept.push({ condition: condition as UaFinding['condition'], detail: `and ${count - MAX_FINDINGS_PER_CONDITION} more like it` });
  }
  return kept;
}

function needsPerson(tree: StructureTree): NeedsPerson[] {
  const figures = tree.elements.filter((element) => element.type === 'Figure').length;
  return [
    {
      topic: 'alternative text',
      conditions: [],
      detail: `${figures} figure${figures === 1 ? '' : 's'}: whether each alternative text describes its image is for a person to judge`,
    },
    { topic: 'reading order', conditions: ['09-001'], detail: 'whether the tags follow the logical reading order of a complex layout' },
    {
      topic: 'colour and contrast',
      conditions: ['04-001'],
      detail: 'whether colour or contrast alone carries meaning, and whether text contrast is enough (WCAG 1.4.3)',
    },
    {
      topic: 'artifacts and real content',
      conditions: ['01-001', '01-002'],
      detail: 'whether what is marked as artifact is really decoration, and the reverse',
    },
  ];
}
