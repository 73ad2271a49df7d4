// A merge that keeps its sources' logical structure (POST /v1/pdf/merge with pdf_ua): each source's
// pages and structure tree are copied with one object copier, so an element's /Pg and an
// annotation's /P land on the copied page; the parent-tree keys (pages' StructParents,
// annotations' StructParent) move past the ones already used; each source's top elements go under
// one Document, its own Document becoming a Part. Role maps join; the first source's /Lang stays.

import { PDFArray, PDFDict, type PDFDocument, PDFName, PDFNumber, PDFObjectCopier, PDFPage, type PDFPageLeaf, PDFRef } from '@cantoo/pdf-lib';
import { annotationsOf } from './check-annotations.ts';
import { readStructureTree, pageIndexOf } from './structure-tree.ts';

/** The merged document's structure root, its Document element and the next free parent-tree key. */
export interface StructureMerge {
  root: PDFDict;
  document: PDFDict;
  documentRef: PDFRef;
  nums: PDFArray;
  roleMap: PDFDict;
  nextKey: number;
}

/** An empty tree on `merged`, which the sources' trees are added to. */
export function startStructure(merged: PDFDocument): StructureMerge {
  const { context } = merged;
  const nums = context.obj([]);
  const roleMap = context.obj({});
  const rootRef = context.nextRef();
  const kids = context.obj([]);
  const document = context.obj({ Type: 'StructElem', S: 'Document', P: rootRef, K: kids });
  const documentRef = context.register(document);
  const root = context.obj({ Type: 'StructTreeRoot', K: documentRef, ParentTree: context.register(context.obj({ Nums: nums })), RoleMap: roleMap });
  context.assign(rootRef, root);
  merged.catalog.set(PDFName.of('StructTreeRoot'), rootRef);
  merged.catalog.set(PDFName.of('MarkInfo'), context.obj({ Marked: true }));
  return { root, document, documentRef, nums, roleMap, nextKey: 0 };
}

/** Whether a source has a structure tree to keep. */
export function isTagged(source: PDFDocument): boolean {
  return source.catalog.lookupMaybe(PDFName.of('StructTreeRoot'), PDFDict) !== undefined;
}

/** Copies every page of a tagged `source` with its structure into `merged`; answers the copied pages (not yet added). */
export function copyTagged(merged: PDFDocument, source: PDFDocument, into: StructureMerge): PDFPage[] {
  const tree = readStructureTree(source, pageIndexOf(source));
  const root = tree.root!;
  const copier = PDFObjectCopier.for(source.context, merged.context);
  const offset = into.nextKey;
  // Pages copied by reference first, so every later /Pg or /P to them maps to the copy.
  const pages = source.getPages().map((page) => {
    const ref = copier.copy(page.ref);
    const leaf = merged.context.lookup(ref) as PDFPageLeaf;
    return PDFPage.of(leaf, ref, merged);
  });
  let highest = -1;
  for (const page of pages) {
    highest = Math.max(highest, shiftKey(page.node, 'StructParents', offset));
    for (const annotation of annotationsOf(page)) highest = Math.max(highest, shiftKey(annotation, 'StructParent', offset));
  }
  // The top elements' /P is the source's root: it is cut before copying (the source is this merge's
  // own parse) so the copier does not bring the old root along, and set to the merged Document after.
  const top = root.get(PDFName.of('K'));
  const topList = top instanceof PDFArray ? top.asArray() : top ? [top] : [];
  for (const kid of topList) {
    const element = source.context.lookup(kid);
    if (!(element instanceof PDFDict)) continue;
    element.delete(PDFName.of('P'));
    const copied = copier.copy(kid);
    const dict = copied instanceof PDFRef ? merged.context.lookup(copied, PDFDict) : (copied as PDFDict);
    dict.set(PDFName.of('P'), into.documentRef);
    if (dict.lookup(PDFName.of('S')) === PDFName.of('Document')) dict.set(PDFName.of('S'), PDFName.of('Part'));
    into.document.lookup(PDFName.of('K'), PDFArray).push(copied);
  }
  for (const [key, value] of tree.parentTree) {
    into.nums.push(PDFNumber.of(key + offset));
    into.nums.push(copier.copy(value));
    highest = Math.max(highest, key + offset);
  }
  for (const [from, to] of tree.roleMap) if (!into.roleMap.has(PDFName.of(from))) into.roleMap.set(PDFName.of(from), PDFName.of(to));
  into.nextKey = Math.max(into.nextKey, highest + 1);
  into.root.set(PDFName.of('ParentTreeNextKey'), PDFNumber.of(into.nextKey));
  const lang = source.catalog.get(PDFName.of('Lang'));
  if (lang && !merged.catalog.has(PDFName.of('Lang'))) merged.catalog.set(PDFName.of('Lang'), copier.copy(lang));
  if (!merged.getTitle() && source.getTitle()) merged.setTitle(source.getTitle()!);
  return pages;
}

/** Adds `offset` to a parent-tree key; answers the new key (-1 when there is none). */
function shiftKey(dict: PDFDict, key: string, offset: number): number {
  const value = dict.lookup(PDFName.of(key));
  if (!(value instanceof PDFNumber)) return -1;
  dict.set(PDFName.of(key), PDFNumber.of(value.asNumber() + offset));
  return value.asNumber() + offset;
}
