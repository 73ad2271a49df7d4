// The admin window's reading of e-invoice rule reports (issue 41, item 5): the X-E-Invoice-Report
// line in words, that line beside the e-invoice in a preview's final steps, and the reports a
// receipt's steps carry found whatever shape the step gave them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeReportHeader } from '../../../ui/src/lib/rule-reports.ts';
import { appliedSteps } from '../../../ui/src/lib/applied-steps.ts';
import { ruleReportsOf } from '../../../ui/src/lib/rule-reports.ts';

const WARNING = { id: 'BR-DE-21', detail: 'The specification identifier should name XRechnung.', location: '/rsm:CrossIndustryInvoice' };

test('the report header reads as words, with the rule set named and the ids listed', () => {
  assert.equal(
    describeReportHeader('rules=xrechnung; fatal=0; warnings=2; ids=BR-DE-21,BR-DE-22'),
    'XRechnung rules: 0 fatal, 2 warnings (BR-DE-21, BR-DE-22)',
  );
  assert.equal(describeReportHeader('rules=en16931; fatal=0; warnings=0'), 'EN 16931 rules: 0 fatal, 0 warnings');
});

test('a preview’s e-invoice step carries the report line when the answer sends one', () => {
  const asked = { e_invoice: { profile: 'EN 16931', from_data: true } } as Parameters<typeof appliedSteps>[0];
  const without = appliedSteps(asked, new Headers({ 'X-E-Invoice': 'EN 16931' }));
  assert.equal(without[0]?.detail, 'Factur-X EN 16931 embedded');
  const withReport = appliedSteps(asked, new Headers({ 'X-E-Invoice': 'EN 16931', 'X-E-Invoice-Report': 'rules=en16931; fatal=0; warnings=1' }));
  assert.equal(withReport[0]?.detail, 'Factur-X EN 16931 embedded; EN 16931 rules: 0 fatal, 1 warning');
});

test('a receipt’s rule reports are found in any step, nested or as the header’s line', () => {
  const steps = [
    { step: 'pdf_a', report: { level: 'PDF/A-3b', rules: 21, failed: 0 } },
    { step: 'attachments', report: { files: [], e_invoice: { profile: 'XRECHNUNG', report: { rules: 'xrechnung', fatal: [], warnings: [WARNING] } } } },
    { step: 'e_invoice', report: { header: 'rules=en16931; fatal=0; warnings=0' } },
    { step: 'sign', report: null },
  ];
  const found = ruleReportsOf(steps);
  assert.deepEqual(found, [
    { step: 'attachments', ruleSet: 'xrechnung', fatal: [], warnings: [WARNING] },
    { step: 'e_invoice', fatal: [], warnings: [], line: 'rules=en16931; fatal=0; warnings=0' },
  ]);
  // PDF/A's report has a rules count and a failed count, not findings: it is not taken for one.
  assert.deepEqual(ruleReportsOf([steps[0]!]), []);
  assert.deepEqual(ruleReportsOf(undefined), []);
});
