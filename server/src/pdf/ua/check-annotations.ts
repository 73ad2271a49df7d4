// The PDF/UA-1 conditions on annotations: descriptions (28-004, 28-012), tab order on pages with
// annotations (28-008, 28-009) and a Link annotation's place in a Link structure element through
// its StructParent and the parent tree (28-011).

import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, type PDFDocument, type PDFPage } from '@cantoo/pdf-lib';
import { nameOf, textOf } from '../pdf-values.ts';
import type { UaCondition, UaFinding } from './conditions.ts';
import { standardType, type StructureTree } from './structure-tree.ts';

export const ANNOTATION_CONDITIONS: UaCondition[] = ['28-004', '28-008', '28-009', '28-011', '28-012'];

/** Annotations that are not content a reader is told about (ISO 14289-1 7.18.1 leaves them out). */
const NOT_DESCRIBED = new Set(['Widget', 'Link', 'Popup', 'PrinterMark']);

export function annotationsOf(page: PDFPage): PDFDict[] {
  const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  return (annots?.asArray() ?? []).map((item) => page.doc.context.lookup(item)).filter((item): item is PDFDict => item instanceof PDFDict);
}

export function checkAnnotations(doc: PDFDocument, tree: StructureTree): UaFinding[] {
  const findings: UaFinding[] = [];
  doc.getPages().forEach((page, index) => {
    const annotations = annotationsOf(page);
    if (annotations.length === 0) return;
    const at = { page: index + 1 };
    const tabs = nameOf(page.node.lookup(PDFName.of('Tabs')));
    if (!tabs) findings.push({ condition: '28-008', ...at, detail: 'the page has annotations and no Tabs' });
    else if (tabs !== 'S') findings.push({ condition: '28-009', ...at, detail: `Tabs is ${tabs}` });
    for (const annotation of annotations) {
      const subtype = nameOf(annotation.lookup(PDFName.of('Subtype'))) ?? '';
      const contents = textOf(annotation.lookup(PDFName.of('Contents')))?.trim();
      const element = structureParent(doc, tree, annotation);
      if (subtype === 'Link') {
        if (!contents) findings.push({ condition: '28-012', ...at, detail: 'a Link annotation without Contents' });
        const type = element && nameOf(element.lookup(PDFName.of('S')));
        if (!type || standardType(type, tree.roleMap) !== 'Link')
          findings.push({
            condition: '28-011',
            ...at,
            detail: element ? `a Link annotation in a ${type} element` : 'a Link annotation without a structure parent',
          });
      } else if (!NOT_DESCRIBED.has(subtype) && !contents && !textOf(element?.lookup(PDFName.of('Alt')))) {
        findings.push({ condition: '28-004', ...at, detail: `a ${subtype} annotation without Contents or Alt` });
      }
    }
  });
  return findings;
}

/** The structure element an annotation's StructParent key names in the parent tree. */
export function structureParent(doc: PDFDocument, tree: StructureTree, annotation: PDFDict): PDFDict | undefined {
  const key = annotation.lookup(PDFName.of('StructParent'));
  if (!(key instanceof PDFNumber)) return undefined;
  const value = tree.parentTree.get(key.asNumber());
  const element = value instanceof PDFRef ? doc.context.lookup(value) : value;
  return element instanceof PDFDict ? element : undefined;
}
