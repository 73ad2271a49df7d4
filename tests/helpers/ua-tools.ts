// What tools other than Quire's checker see in a PDF/UA file (tests/api/pdf-ua-sources*.test.ts):
// pdfinfo's Tagged, qpdf's JSON of the catalog (/Lang, /ViewerPreferences /DisplayDocTitle,
// /StructTreeRoot) and of the structure elements (/S, /Alt), artifacts in qpdf's uncompressed
// content streams, and pdftotext's reading order.

import assert from 'node:assert/strict';
import { pdfInfo, qdfText } from './pdf-cli.ts';
import { pdfaIdOf, qpdfJson, textOf } from './pdf-a-tools.ts';

export interface UaSeen {
  tagged: string | undefined;
  lang: unknown;
  displayDocTitle: unknown;
  /** Structure types qpdf finds on objects with /S (Figure, H1, TH...). */
  types: string[];
  /** /Alt of each /Figure element. */
  figureAlts: unknown[];
  /** Marked-content sequences tagged /Artifact in the content streams. */
  artifacts: number;
  /** pdfuaid:part and pdfaid as pdfinfo -meta prints the XMP. */
  pdfuaPart: string | undefined;
  pdfa: { part?: string; conformance?: string };
  text: string;
}

const plain = (value: unknown) => (typeof value === 'string' ? value.replace(/^[ub]:/, '') : value);

export function uaSeen(bytes: Uint8Array): UaSeen {
  const { objects, trailer } = qpdfJson(bytes);
  const resolved = (item: unknown): Record<string, unknown> | undefined =>
    typeof item === 'string' && item.endsWith(' R') ? objects[`obj:${item}`]?.value : (item as Record<string, unknown> | undefined);
  const catalog = resolved(trailer['/Root']) ?? {};
  const elements = Object.values(objects)
    .map((object) => object.value)
    .filter((value): value is Record<string, unknown> => typeof value?.['/S'] === 'string' && value['/Type'] !== '/Action');
  const id = pdfaIdOf(bytes);
  return {
    tagged: pdfInfo(bytes).Tagged,
    lang: plain(catalog['/Lang']),
    displayDocTitle: resolved(catalog['/ViewerPreferences'])?.['/DisplayDocTitle'],
    types: [...new Set(elements.map((element) => String(element['/S']).slice(1)))],
    figureAlts: elements.filter((element) => element['/S'] === '/Figure').map((element) => plain(element['/Alt'])),
    artifacts: (qdfText(bytes).match(/\/Artifact\s*(BMC|<<)/g) ?? []).length,
    pdfuaPart: /pdfuaid:part>\s*(\d)/.exec(id.xmp)?.[1],
    pdfa: { part: id.part, conformance: id.conformance },
    text: textOf(bytes),
  };
}

/** The common confirmation: tagged, a language, the title shown, a structure tree with these types, pdfuaid part 1. */
export function assertUaSeen(seen: UaSeen, lang: string, types: string[], label: string): void {
  assert.equal(seen.tagged, 'yes', `${label}: pdfinfo Tagged`);
  assert.equal(seen.lang, lang, `${label}: /Lang`);
  assert.equal(seen.displayDocTitle, true, `${label}: /DisplayDocTitle`);
  for (const type of types) assert.ok(seen.types.includes(type), `${label}: a /${type} element (has ${seen.types.join(' ')})`);
  assert.equal(seen.pdfuaPart, '1', `${label}: pdfuaid:part`);
}

/** The texts appear in this order in pdftotext's output. */
export function assertReadingOrder(text: string, texts: string[], label: string): void {
  let from = 0;
  for (const expected of texts) {
    const at = text.indexOf(expected, from);
    assert.ok(at >= 0, `${label}: "${expected}" after position ${from} in pdftotext's text`);
    from = at + expected.length;
  }
}
