// The PDF/UA-1 conditions on the structure tree: the role map (02-001, 02-003, 02-004), figures'
// and formulas' alternative text (13-004, 17-002), headings in order (14-002, 14-003, 14-007),
// table header scope (15-003) and notes' IDs (19-003, 19-004).

import { PDFArray, PDFDict, PDFName, type PDFDocument } from '@cantoo/pdf-lib';
import { nameOf, textOf } from '../pdf-values.ts';
import type { UaCondition, UaFinding } from './conditions.ts';
import { STANDARD_TYPES, type StructElement, type StructureTree } from './structure-tree.ts';

export const STRUCTURE_CONDITIONS: UaCondition[] = [
  '02-001',
  '02-003',
  '02-004',
  '13-004',
  '14-002',
  '14-003',
  '14-007',
  '15-003',
  '17-002',
  '19-003',
  '19-004',
];

export function checkStructure(doc: PDFDocument, tree: StructureTree): UaFinding[] {
  return [...roleMap(tree), ...alternatives(tree), ...headings(tree), ...tableScopes(doc, tree), ...notes(tree)];
}

const pageOf = (element: StructElement) => (element.page === undefined ? {} : { page: element.page + 1 });

function roleMap(tree: StructureTree): UaFinding[] {
  const findings: UaFinding[] = [];
  for (const [from, to] of tree.roleMap) {
    if (STANDARD_TYPES.has(from)) findings.push({ condition: '02-004', detail: `the standard type ${from} is remapped to ${to}` });
    else if (mappingEnd(from, tree.roleMap) === 'circular') findings.push({ condition: '02-003', detail: `${from} maps back to itself` });
  }
  const reported = new Set<string>();
  for (const element of tree.elements) {
    if (element.type || reported.has(element.written) || mappingEnd(element.written, tree.roleMap) === 'circular') continue;
    reported.add(element.written);
    findings.push({ condition: '02-001', ...pageOf(element), detail: `the type ${element.written} does not map to a standard type` });
  }
  return findings;
}

function mappingEnd(type: string, map: Map<string, string>): 'standard' | 'circular' | 'none' {
  const visited = new Set<string>();
  for (let current: string | undefined = type; current; current = map.get(current)) {
    if (STANDARD_TYPES.has(current)) return 'standard';
    if (visited.has(current)) return 'circular';
    visited.add(current);
  }
  return 'none';
}

function alternatives(tree: StructureTree): UaFinding[] {
  const findings: UaFinding[] = [];
  for (const element of tree.elements) {
    const alt = textOf(element.dict.lookup(PDFName.of('Alt')));
    const actual = textOf(element.dict.lookup(PDFName.of('ActualText')));
    if (element.type === 'Figure' && !alt && !actual) findings.push({ condition: '13-004', ...pageOf(element), detail: 'a Figure without Alt or ActualText' });
    if (element.type === 'Formula' && !alt) findings.push({ condition: '17-002', ...pageOf(element), detail: 'a Formula without Alt' });
  }
  return findings;
}

function headings(tree: StructureTree): UaFinding[] {
  const findings: UaFinding[] = [];
  const numbered = tree.elements.filter((element) => /^H[1-6]$/.test(element.type ?? ''));
  const plain = tree.elements.filter((element) => element.type === 'H');
  if (numbered.length > 0 && numbered[0]!.type !== 'H1')
    findings.push({ condition: '14-002', ...pageOf(numbered[0]!), detail: `the first heading is ${numbered[0]!.type}` });
  for (let i = 1; i < numbered.length; i++) {
    const before = Number(numbered[i - 1]!.type!.slice(1));
    const level = Number(numbered[i]!.type!.slice(1));
    if (level > before + 1) findings.push({ condition: '14-003', ...pageOf(numbered[i]!), detail: `H${level} follows H${before}` });
  }
  if (numbered.length > 0 && plain.length > 0) findings.push({ condition: '14-007', ...pageOf(plain[0]!), detail: 'both H and H1-H6 are used' });
  return findings;
}

function tableScopes(doc: PDFDocument, tree: StructureTree): UaFinding[] {
  const cellsByTable = new Map<StructElement, StructElement[]>();
  for (const element of tree.elements) {
    if (element.type !== 'TH' && element.type !== 'TD') continue;
    let table = element.parent;
    while (table && table.type !== 'Table') table = table.parent;
    if (table) cellsByTable.set(table, [...(cellsByTable.get(table) ?? []), element]);
  }
  const findings: UaFinding[] = [];
  for (const cells of cellsByTable.values()) {
    // A table organised with Headers and IDs names each cell's headers: Scope is not needed there.
    if (cells.some((cell) => attributeOf(doc, cell.dict, 'Headers') !== undefined)) continue;
    for (const cell of cells) {
      if (cell.type === 'TH' && attributeOf(doc, cell.dict, 'Scope') === undefined)
        findings.push({ condition: '15-003', ...pageOf(cell), detail: 'a TH without Scope' });
    }
  }
  return findings;
}

/** A structure attribute from A (a dictionary, or an array of dictionaries and revision numbers). */
export function attributeOf(doc: PDFDocument, element: PDFDict, key: string): string | undefined {
  const a = element.lookup(PDFName.of('A'));
  const list = a instanceof PDFArray ? a.asArray().map((item) => doc.context.lookup(item)) : [a];
  for (const item of list) {
    if (!(item instanceof PDFDict)) continue;
    const value = item.lookup(PDFName.of(key));
    if (value !== undefined) return nameOf(value) ?? textOf(value) ?? value.toString();
  }
  return undefined;
}

function notes(tree: StructureTree): UaFinding[] {
  const findings: UaFinding[] = [];
  const ids = new Set<string>();
  for (const element of tree.elements.filter((candidate) => candidate.type === 'Note')) {
    const id = textOf(element.dict.lookup(PDFName.of('ID')));
    if (!id) findings.push({ condition: '19-003', ...pageOf(element), detail: 'a Note without ID' });
    else if (ids.has(id)) findings.push({ condition: '19-004', ...pageOf(element), detail: `the Note ID ${id} is used twice` });
    if (id) ids.add(id);
  }
  return findings;
}
