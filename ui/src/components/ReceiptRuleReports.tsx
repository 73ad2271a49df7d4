// A receipt's e-invoice rule reports (issue 41, item 5): each as its rule set's verdict line and
// its findings, fatal first, however the step recorded it (lib/rule-reports.ts). Presentational.

import { RULE_SET_LABELS, type RuleSetName } from '../api/einvoice.ts';
import type { Receipt } from '../api/activity.ts';
import { plural } from '../lib/format.ts';
import { describeReportHeader, ruleReportsOf } from '../lib/rule-reports.ts';
import { RuleTable } from './RuleTable.tsx';

export function ReceiptRuleReports({ receipt }: { receipt: Receipt }) {
  const reports = ruleReportsOf(receipt.steps);
  if (reports.length === 0) return null;
  return (
    <section aria-label="E-invoice rules" data-testid="receipt-rule-reports">
      <h3>E-invoice rules</h3>
      {reports.map((report, index) => {
        const name = report.ruleSet ? (RULE_SET_LABELS[report.ruleSet as RuleSetName] ?? report.ruleSet) : 'E-invoice';
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the reports of a kept receipt never change
          <div key={index} data-step={report.step}>
            <p>
              {report.line
                ? describeReportHeader(report.line)
                : `${name} rules: ${plural(report.fatal.length, 'fatal finding')}, ${plural(report.warnings.length, 'warning')}`}
            </p>
            {!report.line && <RuleTable label={`${name} rule findings`} fatal={report.fatal} warnings={report.warnings} narrow />}
          </div>
        );
      })}
    </section>
  );
}
