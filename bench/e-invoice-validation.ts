// Bench: what checking one e-invoice costs, in this process, interleaved so load falls on each
// alike: our rules on the warm thread (the render path's check, einvoice/check/rules-pool.ts), the
// same rules on the calling thread, and one xmllint XSD process, which every e-invoice paid before
// the rules replaced it for the XML we write. Medians, in ms.

import { readFileSync } from 'node:fs';
import { invoiceXml } from '../server/src/einvoice/e-invoice.ts';
import { checkRulesInWorker } from '../server/src/einvoice/check/rules-pool.ts';
import { runRuleTask } from '../server/src/einvoice/check/run-rule-task.ts';
import { checkInvoiceXml } from '../server/src/einvoice/xsd-check.ts';

const ROUNDS = 40;

export async function measureValidation(): Promise<string> {
  const invoice = JSON.parse(readFileSync(new URL('../docs/examples/invoice.json', import.meta.url), 'utf8')) as unknown;
  const xml = invoiceXml({ profile: 'EN 16931', invoice }, undefined, 'e_invoice');
  const ways: [string, () => Promise<unknown>][] = [
    ['our EN 16931 rules on the warm thread (read + check)', () => checkRulesInWorker(xml, 'en16931')],
    ['the same rules on the calling thread', async () => runRuleTask({ xml, rules: 'en16931' })],
    ['one xmllint XSD process (before: every e-invoice; now: XML given only)', () => checkInvoiceXml(xml, 'EN 16931')],
  ];
  // The first call starts the thread and compiles the schema's process; not counted.
  for (const [, run] of ways) await run();
  const times = ways.map((): number[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, [, run]] of ways.entries()) {
      const start = performance.now();
      await run();
      times[index]!.push(performance.now() - start);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const rows = ways.map(([name], index) => `| ${name} | ${median(times[index]!).toFixed(1)} |`);
  return [`Checking one EN 16931 invoice (3 lines), median of ${ROUNDS} interleaved rounds`, '', '| check | ms |', '|---|---|', ...rows].join('\n');
}
