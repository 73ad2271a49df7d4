// Compares our code lists (server/src/einvoice/codes/code-lists.ts) with the publishers' own:
// CEN's genericode files (.gc) or Peppol's code list files (structure/codelist/*.xml), in a local
// folder or at a URL. Prints, per list, the codes the publisher added and removed against ours,
// with both versions, and exits 1 on any difference (2 on bad input). Nothing here is generated.
//   npm run check:code-lists -- <folder | file URL>

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as codeLists from '../server/src/einvoice/codes/code-lists.ts';
import { parseXml } from '../server/src/einvoice/xml/safe-xml.ts';

type OurList = Exclude<keyof typeof codeLists, 'CODE_LISTS_VERSION' | 'PEPPOL_CODE_LISTS_VERSION'>;
/** Our lists by name, as one map (the table below names them). */
const ours: Record<string, unknown> = { ...codeLists };

/** A publisher's list and which of ours it is checked against; Peppol's files only where we keep Peppol's copy. */
const LISTS: { name: string; match: RegExp; cen: OurList[]; peppol?: OurList }[] = [
  { name: 'ISO 4217', match: /iso4217/, cen: ['CURRENCY_CODES'], peppol: 'PEPPOL_CURRENCY_CODES' },
  { name: 'ISO 3166-1', match: /iso3166/, cen: ['COUNTRY_CODES_CII', 'COUNTRY_CODES_UBL'] },
  { name: 'CEF EAS', match: /^eas|electronicaddress/, cen: ['EAS_SCHEMES'], peppol: 'PEPPOL_EAS_SCHEMES' },
  { name: 'ISO 6523 ICD', match: /^icd|6523/, cen: ['ICD_SCHEMES'] },
  { name: 'CEF VATEX', match: /vatex/, cen: ['VATEX_CODES'] },
  { name: 'MIME codes', match: /mime/, cen: ['MIME_CODES'], peppol: 'MIME_CODES' },
  { name: 'UN/ECE Rec 20/21', match: /rec20|rec21|unitofmeasure/, cen: ['UNIT_CODES'] },
  { name: 'UNTDID 1001 (credit notes)', match: /1001.*cn|creditnote/, cen: ['UBL_CREDIT_NOTE_TYPE_CODES'] },
  { name: 'UNTDID 1001 (invoices)', match: /1001.*inv/, cen: ['UBL_INVOICE_TYPE_CODES'] },
  { name: 'UNTDID 1001', match: /1001/, cen: ['INVOICE_TYPE_CODES'] },
  { name: 'UNTDID 1153', match: /1153/, cen: ['OBJECT_IDENTIFIER_SCHEMES'] },
  { name: 'UNTDID 2005', match: /2005/, cen: ['UBL_VAT_DATE_CODES'], peppol: 'PEPPOL_PERIOD_DESCRIPTION_CODES' },
  { name: 'UNTDID 2475', match: /2475/, cen: ['CII_VAT_DATE_CODES'] },
  { name: 'UNTDID 4451', match: /4451/, cen: ['NOTE_SUBJECT_CODES'] },
  { name: 'UNTDID 4461', match: /4461/, cen: ['PAYMENT_MEANS_CODES'] },
  { name: 'UNTDID 5189', match: /5189/, cen: ['ALLOWANCE_REASON_CODES'], peppol: 'ALLOWANCE_REASON_CODES' },
  { name: 'UNTDID 5305', match: /5305/, cen: ['VAT_CATEGORY_CODES'] },
  { name: 'UNTDID 7143', match: /7143/, cen: ['ITEM_CLASSIFICATION_SCHEMES'] },
  { name: 'UNTDID 7161', match: /7161/, cen: ['CHARGE_REASON_CODES'], peppol: 'CHARGE_REASON_CODES' },
];

interface PublishedList {
  source: string;
  format: 'genericode' | 'peppol';
  identifier: string;
  version: string;
  codes: Set<string>;
}

const childText = (parent: Element, name: string) => parent.getElementsByTagNameNS('*', name)[0]?.textContent?.trim() ?? '';

/** Reads one file as a genericode or a Peppol code list; undefined when it is neither. */
export function readPublishedList(source: string, xml: string): PublishedList | undefined {
  let root: Element | undefined;
  try {
    root = parseXml(xml).documentElement ?? undefined;
  } catch {
    return undefined; // not XML we can read (or with a DOCTYPE): not a code list
  }
  if (root?.localName !== 'CodeList') return undefined;
  if (root.namespaceURI?.includes('genericode')) {
    const identification = root.getElementsByTagNameNS('*', 'Identification')[0];
    const codes = new Set<string>();
    // The code is the first value of each row (genericode lists put the key column first).
    for (const row of Array.from(root.getElementsByTagNameNS('*', 'Row'))) {
      const value = row.getElementsByTagNameNS('*', 'SimpleValue')[0]?.textContent?.trim();
      if (value) codes.add(value);
    }
    const identifier = identification ? childText(identification, 'ShortName') : '';
    return {
      source,
      format: 'genericode',
      identifier: identifier || path.basename(source),
      version: identification ? childText(identification, 'Version') : '',
      codes,
    };
  }
  const codes = new Set(
    Array.from(root.getElementsByTagNameNS('*', 'Code'))
      .map((code) => childText(code, 'Id'))
      .filter(Boolean),
  );
  return { source, format: 'peppol', identifier: childText(root, 'Identifier') || path.basename(source), version: childText(root, 'Version'), codes };
}

const key = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
const listFor = (published: PublishedList) =>
  LISTS.find((list) => list.match.test(key(published.identifier)) || list.match.test(key(path.basename(published.source))));

/** One report line per comparison; `differs` when any code was added or removed. */
export function compare(published: PublishedList[]): { lines: string[]; differs: boolean } {
  const lines: string[] = [];
  let differs = false;
  for (const list of published) {
    const known = listFor(list);
    const targets = known ? (list.format === 'peppol' ? (known.peppol ? [known.peppol] : []) : known.cen) : [];
    if (targets.length === 0) {
      lines.push(`${list.source}: ${list.identifier} is not a list we keep${known && list.format === 'peppol' ? ' as a Peppol copy' : ''}; not checked`);
      continue;
    }
    const ourVersion = list.format === 'peppol' ? codeLists.PEPPOL_CODE_LISTS_VERSION : codeLists.CODE_LISTS_VERSION;
    for (const target of targets) {
      const mine = ours[target] as ReadonlySet<string>;
      const added = [...list.codes].filter((code) => !mine.has(code)).sort();
      const removed = [...mine].filter((code) => !list.codes.has(code)).sort();
      const head = `${known!.name}: ${list.source} (${list.identifier}, version ${list.version || 'not stated'}) against ${target} (${ourVersion})`;
      if (added.length === 0 && removed.length === 0) lines.push(`${head}: same ${mine.size} codes`);
      else {
        differs = true;
        lines.push(`${head}: added ${added.join(' ') || '-'}; removed ${removed.join(' ') || '-'}`);
      }
    }
  }
  return { lines, differs };
}

async function load(where: string): Promise<PublishedList[]> {
  if (/^https?:\/\//.test(where)) {
    const response = await fetch(where);
    if (!response.ok) throw new Error(`${where}: HTTP ${response.status}`);
    const list = readPublishedList(where, await response.text());
    return list ? [list] : [];
  }
  const files = statSync(where).isDirectory()
    ? readdirSync(where, { recursive: true, encoding: 'utf8' })
        .map((name) => path.join(where, name))
        .filter((file) => /\.(gc|xml)$/i.test(file))
        .sort()
    : [where];
  return files.flatMap((file) => readPublishedList(path.relative(process.cwd(), file), readFileSync(file, 'utf8')) ?? []);
}

async function main(): Promise<number> {
  const where = process.argv[2];
  if (!where) {
    console.error('usage: npm run check:code-lists -- <folder of .gc or Peppol code list files | URL of one>');
    return 2;
  }
  const published = await load(where);
  if (published.length === 0) {
    console.error(`${where}: no genericode or Peppol code list found`);
    return 2;
  }
  const { lines, differs } = compare(published);
  for (const line of lines) console.log(line);
  return differs ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (code) => process.exit(code),
    (error: Error) => {
      console.error(error.message);
      process.exit(2);
    },
  );
}
