// The rule report of an inspected e-invoice: the verdict of the rule set its profile is checked by,
// then one rule set's findings as a table, switchable between EN 16931, XRechnung and Peppol (every
// set is run on every invoice, whatever it claims to be). Presentational.

import { useState } from 'react';
import { RULE_SET_LABELS, type EInvoiceInspection, type RuleSetName } from '../api/einvoice.ts';
import { plural } from '../lib/format.ts';
import { RuleTable } from './RuleTable.tsx';
import { Segmented } from './Segmented.tsx';

const RULE_SETS: readonly RuleSetName[] = ['en16931', 'xrechnung', 'peppol'];

export function EInvoiceReport({ inspection }: { inspection: EInvoiceInspection }) {
  const [shown, setShown] = useState<RuleSetName>(inspection.rule_set);
  const report = inspection.rule_sets[shown];
  const applicable = inspection.rule_sets[inspection.rule_set];
  return (
    <div className="einvoice-report">
      <p className={inspection.valid ? 'verdict verdict-pass' : 'verdict verdict-fail'} data-testid="einvoice-verdict" data-valid={inspection.valid}>
        <strong>
          {inspection.valid ? 'Passes' : 'Fails'} the {RULE_SET_LABELS[inspection.rule_set]} rules
        </strong>
        {' · '}
        {plural(applicable.fatal.length, 'fatal finding')}, {plural(applicable.warnings.length, 'warning')}
      </p>
      <div className="toolbar">
        <Segmented name="einvoice-rule-set" label="Rule set" value={shown} choices={RULE_SETS} labels={RULE_SET_LABELS} onChange={setShown} />
        <span className="muted small" data-testid="rule-set-summary">
          {plural(report.fatal.length, 'fatal finding')}, {plural(report.warnings.length, 'warning')}
          {shown === inspection.rule_set ? ' · the rule set this profile is checked by' : ''}
        </span>
      </div>
      {report.partial && <p className="note small">This rule set is not complete yet: a clean report here is not the official verdict.</p>}
      <RuleTable label={`${RULE_SET_LABELS[shown]} findings`} fatal={report.fatal} warnings={report.warnings} />
    </div>
  );
}
