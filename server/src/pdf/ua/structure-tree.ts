// Reads a tagged PDF's logical structure once for the checker and the fixer: the structure
// elements in document order with their resolved (role-mapped) type and page, the role map, and
// the parent tree (StructParent(s) keys to elements) flattened from its number tree.

import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { nameOf } from '../pdf-values.ts';

/** The standard structure types of ISO 32000-1 14.8.4. */
export const STANDARD_TYPES = new Set(
  (
    'Document Part Art Sect Div BlockQuote Caption TOC TOCI Index NonStruct Private P H H1 H2 H3 H4 H5 H6 L LI Lbl LBody ' +
    'Table TR TH TD THead TBody TFoot Span Quote Note Reference BibEntry Code Link Annot Ruby RB RT RP Warichu WT WP ' +
    'Figure Formula Form'
  ).split(' '),
);

export interface StructElement {
  dict: PDFDict;
  ref?: PDFRef;
  /** The type as written (S). */
  written: string;
  /** The standard type it maps to through the role map; undefined when the mapping does not end at one. */
  type: string | undefined;
  /** 0-based page from its own or an ancestor's Pg. */
  page?: number;
  parent?: StructElement;
}

export interface StructureTree {
  root: PDFDict | undefined;
  elements: StructElement[];
  roleMap: Map<string, string>;
  /** Parent tree keys: a page's StructParents key to its array of elements by MCID; an annotation's StructParent key to its element. */
  parentTree: Map<number, PDFObject>;
}

/** Page object reference ("12 0 R") to 0-based page index. */
export function pageIndexOf(doc: PDFDocument): Map<string, number> {
  return new Map(doc.getPages().map((page, index) => [page.ref.toString(), index]));
}

/** Bounds the walk of a hostile tree: deeper nesting is not read (and its content counts as untagged elsewhere). */
const MAX_DEPTH = 256;

export function readStructureTree(doc: PDFDocument, pageIndex: Map<string, number>): StructureTree {
  const root = doc.catalog.lookupMaybe(PDFName.of('StructTreeRoot'), PDFDict);
  const roleMap = new Map<string, string>();
  for (const [key, value] of root?.lookupMaybe(PDFName.of('RoleMap'), PDFDict)?.entries() ?? []) {
    const target = nameOf(doc.context.lookup(value));
    if (target) roleMap.set(key.decodeText(), target);
  }
  const elements: StructElement[] = [];
  const seen = new Set<PDFDict>();
  const visit = (kids: PDFObject | undefined, parent: StructElement | undefined, depth: number) => {
    if (depth > MAX_DEPTH || kids === undefined) return;
    const list = kids instanceof PDFArray ? kids.asArray() : [kids];
    for (const kid of list) {
      const dict = kid instanceof PDFRef ? doc.context.lookup(kid) : kid;
      if (!(dict instanceof PDFDict) || seen.has(dict)) continue;
      const written = nameOf(dict.lookup(PDFName.of('S')));
      if (!written) continue; // a marked-content or object reference, not an element
      seen.add(dict);
      const pg = dict.get(PDFName.of('Pg'));
      const page = pg instanceof PDFRef ? pageIndex.get(pg.toString()) : parent?.page;
      const element: StructElement = { dict, ref: kid instanceof PDFRef ? kid : undefined, written, type: standardType(written, roleMap), page, parent };
      elements.push(element);
      visit(dict.get(PDFName.of('K')), element, depth + 1);
    }
  };
  visit(root?.get(PDFName.of('K')), undefined, 0);
  const parentTree = flattenNumberTree(doc, root?.lookup(PDFName.of('ParentTree')));
  locatePages(doc, elements, parentTree);
  return { root, elements, roleMap, parentTree };
}

/**
 * Gives a page to elements without /Pg (Chromium writes none on headings): the page whose marked
 * content the parent tree says is theirs, else the page of their first descendant that has one.
 */
function locatePages(doc: PDFDocument, elements: StructElement[], parentTree: Map<number, PDFObject>): void {
  if (elements.every((element) => element.page !== undefined)) return;
  const contentPage = new Map<PDFDict, number>();
  doc.getPages().forEach((page, index) => {
    const key = page.node.lookup(PDFName.of('StructParents'));
    const value = key instanceof PDFNumber ? parentTree.get(key.asNumber()) : undefined;
    const owners = value instanceof PDFRef ? doc.context.lookup(value) : value;
    if (!(owners instanceof PDFArray)) return;
    for (const owner of owners.asArray()) {
      const dict = owner instanceof PDFRef ? doc.context.lookup(owner) : owner;
      if (dict instanceof PDFDict && !contentPage.has(dict)) contentPage.set(dict, index);
    }
  });
  for (const element of elements) element.page ??= contentPage.get(element.dict);
  // Children follow their parent in document order: walked backwards, the first child is the last to give its page.
  const fromChild = new Map<StructElement, number>();
  for (let i = elements.length - 1; i >= 0; i--) {
    const element = elements[i]!;
    const page = element.page ?? fromChild.get(element);
    if (page !== undefined && element.parent && element.parent.page === undefined) fromChild.set(element.parent, page);
  }
  for (const [element, page] of fromChild) element.page ??= page;
}

/** Follows the role map to a standard type; undefined for a circular or dead-end mapping. */
export function standardType(type: string, roleMap: Map<string, string>): string | undefined {
  const visited = new Set<string>();
  let current = type;
  // A standard type is final even when the role map remaps it (02-004 reports that separately).
  while (!STANDARD_TYPES.has(current)) {
    if (visited.has(current)) return undefined;
    visited.add(current);
    const next = roleMap.get(current);
    if (!next) return undefined;
    current = next;
  }
  return current;
}

function flattenNumberTree(doc: PDFDocument, node: PDFObject | undefined, depth = 0, into = new Map<number, PDFObject>()): Map<number, PDFObject> {
  if (!(node instanceof PDFDict) || depth > 32) return into;
  const nums = node.lookupMaybe(PDFName.of('Nums'), PDFArray);
  for (let i = 0; i + 1 < (nums?.size() ?? 0); i += 2) {
    const key = nums!.lookup(i);
    if (key instanceof PDFNumber) into.set(key.asNumber(), nums!.get(i + 1));
  }
  for (const kid of node.lookupMaybe(PDFName.of('Kids'), PDFArray)?.asArray() ?? []) flattenNumberTree(doc, doc.context.lookup(kid), depth + 1, into);
  return into;
}

/** The MCIDs an element holds directly (K as a number, MCR dictionaries, or an array of them) with the page of each. */
export function markedContentOf(doc: PDFDocument, element: StructElement, pageIndex: Map<string, number>): { mcid: number; page?: number }[] {
  const k = element.dict.get(PDFName.of('K'));
  const list = k instanceof PDFArray ? k.asArray() : k ? [k] : [];
  const found: { mcid: number; page?: number }[] = [];
  for (const item of list) {
    const value = item instanceof PDFRef ? doc.context.lookup(item) : item;
    if (value instanceof PDFNumber) found.push({ mcid: value.asNumber(), page: element.page });
    else if (value instanceof PDFDict && value.lookup(PDFName.of('Type')) === PDFName.of('MCR')) {
      const mcid = value.lookup(PDFName.of('MCID'));
      const pg = value.get(PDFName.of('Pg'));
      if (mcid instanceof PDFNumber) found.push({ mcid: mcid.asNumber(), page: pg instanceof PDFRef ? pageIndex.get(pg.toString()) : element.page });
    }
  }
  return found;
}
