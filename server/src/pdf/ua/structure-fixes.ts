// The fixer's changes to the logical structure of Chromium's tagged output: PDF 2.0 types Chromium
// writes (Strong, Em) role-mapped to PDF 1.7 ones (02-001), Figures without alt text taken out of
// the tree so their content can become artifacts (13-004), and Link annotations given Contents and
// a Link structure parent where they lack them (28-011, 28-012), with /Tabs /S (28-008/009).

import { PDFArray, PDFDict, PDFName, PDFNull, PDFNumber, PDFRef, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import { nameOf, textOf } from '../pdf-values.ts';
import { annotationsOf, structureParent } from './check-annotations.ts';
import { markedContentOf, standardType, type StructureTree } from './structure-tree.ts';

/** PDF 2.0 standard types (ISO 32000-2 14.8.4) and the PDF 1.7 type each reads as. */
const PDF2_TYPES: Record<string, string> = { Strong: 'Span', Em: 'Span', Sub: 'Span', Aside: 'Div', Title: 'P', FENote: 'Note', DocumentFragment: 'Div' };

/** Role-maps the PDF 2.0 types used; answers the mappings added. */
export function mapPdf2Types(doc: PDFDocument, tree: StructureTree): string[] {
  if (!tree.root) return [];
  const added: string[] = [];
  for (const element of tree.elements) {
    const target = PDF2_TYPES[element.written];
    if (element.type || !target || tree.roleMap.has(element.written)) continue;
    tree.roleMap.set(element.written, target);
    added.push(`${element.written}->${target}`);
  }
  if (added.length === 0) return added;
  const map = tree.root.lookupMaybe(PDFName.of('RoleMap'), PDFDict) ?? doc.context.obj({});
  for (const [from, to] of tree.roleMap) map.set(PDFName.of(from), PDFName.of(to));
  tree.root.set(PDFName.of('RoleMap'), map);
  return added;
}

/**
 * Takes Figures with neither Alt nor ActualText (and no child elements) out of the tree and the
 * parent tree; answers, by 0-based page, the MCIDs whose content is to become artifacts.
 */
export function detachFiguresWithoutAlt(doc: PDFDocument, tree: StructureTree, pageIndex: Map<string, number>): Map<number, Set<number>> {
  const byPage = new Map<number, Set<number>>();
  const pages = doc.getPages();
  for (const element of tree.elements) {
    if (element.type !== 'Figure' || textOf(element.dict.lookup(PDFName.of('Alt'))) || textOf(element.dict.lookup(PDFName.of('ActualText')))) continue;
    const content = markedContentOf(doc, element, pageIndex);
    const kids = element.dict.lookup(PDFName.of('K'));
    const hasChildElements =
      kids instanceof PDFArray && kids.asArray().some((kid) => kid instanceof PDFRef && nameOf(doc.context.lookup(kid, PDFDict).lookup(PDFName.of('S'))));
    if (hasChildElements || content.some((item) => item.page === undefined)) continue;
    const parentKids = (element.parent?.dict ?? tree.root)?.lookup(PDFName.of('K'));
    if (!(parentKids instanceof PDFArray) || !element.ref) continue;
    const at = parentKids.asArray().findIndex((kid) => kid === element.ref || kid.toString() === element.ref!.toString());
    if (at < 0) continue;
    parentKids.remove(at);
    for (const { mcid, page } of content) {
      byPage.set(page!, (byPage.get(page!) ?? new Set()).add(mcid));
      const key = pages[page!]!.node.lookup(PDFName.of('StructParents'));
      const entries = key instanceof PDFNumber ? tree.parentTree.get(key.asNumber()) : undefined;
      const list = entries instanceof PDFRef ? doc.context.lookup(entries) : entries;
      if (list instanceof PDFArray && mcid < list.size()) list.set(mcid, PDFNull);
    }
  }
  return byPage;
}

/** Gives Link annotations Contents and a Link structure parent where missing, and /Tabs /S to pages with annotations; answers how many links changed. */
export function fixAnnotations(doc: PDFDocument, tree: StructureTree): number {
  let changed = 0;
  const pages = doc.getPages();
  pages.forEach((page) => {
    const annotations = annotationsOf(page);
    if (annotations.length === 0) return;
    page.node.set(PDFName.of('Tabs'), PDFName.of('S'));
    const refs = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray)?.asArray() ?? [];
    for (const [i, annotation] of annotations.entries()) {
      if (nameOf(annotation.lookup(PDFName.of('Subtype'))) !== 'Link') continue;
      let touched = false;
      if (!textOf(annotation.lookup(PDFName.of('Contents')))?.trim()) {
        annotation.set(PDFName.of('Contents'), PDFString.of(describeLink(doc, annotation)));
        touched = true;
      }
      const parent = structureParent(doc, tree, annotation);
      const type = parent && nameOf(parent.lookup(PDFName.of('S')));
      const ref = refs[i];
      if ((!type || standardType(type, tree.roleMap) !== 'Link') && ref instanceof PDFRef && tree.root) {
        addLinkElement(doc, tree, annotation, ref, page.ref);
        touched = true;
      }
      if (touched) changed++;
    }
  });
  return changed;
}

/** A description from the link's target: the text on the page would be better, but needs a text extraction by MCID. */
function describeLink(doc: PDFDocument, annotation: PDFDict): string {
  const action = annotation.lookup(PDFName.of('A'));
  const uri = action instanceof PDFDict ? textOf(action.lookup(PDFName.of('URI'))) : undefined;
  if (uri) return `Link to ${uri.replace(/^mailto:/, '')}`;
  const destination = action instanceof PDFDict ? action.lookup(PDFName.of('D')) : annotation.lookup(PDFName.of('Dest'));
  const target = destination instanceof PDFArray ? destination.get(0) : undefined;
  const page =
    target instanceof PDFRef ? doc.getPages().findIndex((candidate) => candidate.ref === target || candidate.ref.toString() === target.toString()) : -1;
  return page >= 0 ? `Link to page ${page + 1}` : 'Link to another place in this document';
}

function addLinkElement(doc: PDFDocument, tree: StructureTree, annotation: PDFDict, annotationRef: PDFRef, pageRef: PDFRef): void {
  const root = tree.root!;
  const top = root.lookup(PDFName.of('K'));
  const first = top instanceof PDFArray ? top.get(0) : top;
  const documentRef = first instanceof PDFRef ? first : undefined;
  const container = documentRef ? doc.context.lookup(documentRef, PDFDict) : root;
  const objr = doc.context.obj({ Type: 'OBJR', Obj: annotationRef, Pg: pageRef });
  const element = doc.context.register(
    doc.context.obj({ Type: 'StructElem', S: 'Link', P: documentRef ?? doc.context.getObjectRef(root)!, Pg: pageRef, K: [objr] }),
  );
  const siblings = container.lookup(PDFName.of('K'));
  if (siblings instanceof PDFArray) siblings.push(element);
  else container.set(PDFName.of('K'), doc.context.obj(siblings ? [container.get(PDFName.of('K'))!, element] : [element]));
  const key = nextParentTreeKey(tree, root);
  annotation.set(PDFName.of('StructParent'), PDFNumber.of(key));
  const parentTree = root.lookupMaybe(PDFName.of('ParentTree'), PDFDict) ?? doc.context.obj({});
  root.set(PDFName.of('ParentTree'), parentTree);
  // A number tree node holds either Nums or Kids: under Kids the entry goes into a leaf of its own,
  // last, as its key is above every other.
  const kids = parentTree.lookupMaybe(PDFName.of('Kids'), PDFArray);
  if (kids) kids.push(doc.context.register(doc.context.obj({ Limits: [key, key], Nums: [key, element] })));
  else {
    const nums = parentTree.lookupMaybe(PDFName.of('Nums'), PDFArray) ?? doc.context.obj([]);
    parentTree.set(PDFName.of('Nums'), nums);
    nums.push(PDFNumber.of(key));
    nums.push(element);
  }
  tree.parentTree.set(key, element);
  root.set(PDFName.of('ParentTreeNextKey'), PDFNumber.of(key + 1));
}

function nextParentTreeKey(tree: StructureTree, root: PDFDict): number {
  const next = root.lookup(PDFName.of('ParentTreeNextKey'));
  const highest = Math.max(-1, ...tree.parentTree.keys());
  return Math.max(next instanceof PDFNumber ? next.asNumber() : 0, highest + 1);
}
