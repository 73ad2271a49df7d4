// scripts/check-code-lists.ts on a tiny folder made here: one genericode file and one Peppol code
// list file, each a few codes (not the publishers' files). The script reports, per list, the codes
// the publisher added and removed against ours, and exits 1 on a difference, 0 when all agree.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PEPPOL_PERIOD_DESCRIPTION_CODES, VAT_CATEGORY_CODES } from '../../../server/src/einvoice/codes/code-lists.ts';

const SCRIPT = path.resolve(import.meta.dirname, '..', '..', '..', 'scripts', 'check-code-lists.ts');

const genericode = (shortName: string, version: string, codes: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<gc:CodeList xmlns:gc="http://docs.oasis-open.org/codelist/ns/genericode/1.0/">
  <Identification><ShortName>${shortName}</ShortName><Version>${version}</Version></Identification>
  <ColumnSet><Column Id="code" Use="required"><ShortName>Code</ShortName></Column></ColumnSet>
  <SimpleCodeList>${codes.map((code) => `<Row><Value ColumnRef="code"><SimpleValue>${code}</SimpleValue></Value><Value ColumnRef="name"><SimpleValue>name of ${code}</SimpleValue></Value></Row>`).join('')}</SimpleCodeList>
</gc:CodeList>`;

const peppolList = (identifier: string, version: string, codes: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<CodeList xmlns="urn:fdc:difi.no:2017:vefa:structure:CodeList-1">
  <Identifier>${identifier}</Identifier><Version>${version}</Version>
  ${codes.map((code) => `<Code><Id>${code}</Id><Name>name of ${code}</Name></Code>`).join('')}
</CodeList>`;

function run(files: Record<string, string>) {
  const folder = mkdtempSync(path.join(tmpdir(), 'code-lists-'));
  try {
    for (const [name, xml] of Object.entries(files)) writeFileSync(path.join(folder, name), xml);
    const result = spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, folder], { encoding: 'utf8' });
    return { status: result.status, out: result.stdout, err: result.stderr };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const categories = [...VAT_CATEGORY_CODES];
const periods = [...PEPPOL_PERIOD_DESCRIPTION_CODES];

test('lists equal to ours: each reported the same, exit 0', () => {
  const result = run({ 'UNCL5305.gc': genericode('UNCL5305', 'D.16B', categories), 'UNCL2005.xml': peppolList('UNCL2005', 'D.16B', periods) });
  assert.equal(result.status, 0, result.out + result.err);
  assert.match(
    result.out,
    new RegExp(`UNTDID 5305: .*UNCL5305\\.gc \\(UNCL5305, version D\\.16B\\) against VAT_CATEGORY_CODES .*: same ${categories.length} codes`),
  );
  assert.match(result.out, /UNTDID 2005: .*against PEPPOL_PERIOD_DESCRIPTION_CODES \(Peppol BIS Billing 3\.0\.19\): same 3 codes/);
});

test('a code added and one removed by the publisher are named, with versions, and the exit is 1', () => {
  const changed = [...categories.filter((code) => code !== 'B'), 'XX'];
  const result = run({ 'vat.gc': genericode('UNCL5305', 'D.24A', changed), 'UNCL2005.xml': peppolList('UNCL2005', 'D.16B', periods) });
  assert.equal(result.status, 1, result.out + result.err);
  assert.match(result.out, /UNTDID 5305: .*version D\.24A\) against VAT_CATEGORY_CODES \(EN 16931 validation artefacts 1\.3\.16\): added XX; removed B/);
  assert.match(result.out, /UNTDID 2005: .*same 3 codes/);
});

test('a list we do not keep is named as not checked; a folder without any list is bad input (exit 2)', () => {
  const other = run({ 'SEPA.xml': peppolList('SEPA', '1', ['SEPA']), 'UNCL2005.xml': peppolList('UNCL2005', 'D.16B', periods) });
  assert.equal(other.status, 0, other.out + other.err);
  assert.match(other.out, /SEPA is not a list we keep; not checked/);
  const none = run({ 'notes.xml': '<notes/>' });
  assert.equal(none.status, 2);
  assert.match(none.err, /no genericode or Peppol code list found/);
});
