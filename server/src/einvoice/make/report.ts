// How a rule report of an e-invoice we made is told: the compact X-E-Invoice-Report header
// (`rules=xrechnung; fatal=0; warnings=2; ids=BR-DE-21,PEPPOL-EN16931-R120`) and the findings of an
// einvoice_invalid answer, each {id, detail, location} as POST /v1/einvoice/inspect words them.

import type { RuleSetName } from '../rules/rule-sets.ts';
import { type Finding, idsOf } from '../rules/rule.ts';

/** Ids beyond this many are left out of the header (the body or an inspect call has them all). */
const MAX_HEADER_IDS = 40;

export function reportHeader(ruleSet: RuleSetName, findings: readonly Finding[]): string {
  const fatal = findings.filter((finding) => finding.flag === 'fatal');
  const warnings = findings.filter((finding) => finding.flag === 'warning');
  const ids = [...idsOf(findings, 'fatal'), ...idsOf(findings, 'warning')].slice(0, MAX_HEADER_IDS);
  return `rules=${ruleSet}; fatal=${fatal.length}; warnings=${warnings.length}${ids.length > 0 ? `; ids=${ids.join(',')}` : ''}`;
}

const wire = (finding: Finding) => ({ id: finding.id, detail: finding.text, location: finding.location });

/** The members an einvoice_invalid body has beside detail and code (the same as a render's: wire/error-mapping.ts). */
export function findingsBody(ruleSet: RuleSetName, findings: readonly Finding[]) {
  return {
    rule_set: ruleSet,
    rules: findings.filter((finding) => finding.flag === 'fatal').map(wire),
    warnings: findings.filter((finding) => finding.flag === 'warning').map(wire),
  };
}
