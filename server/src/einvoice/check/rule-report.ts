// Which of our rule sets a Factur-X profile is checked by, and what a check reports: the fatal
// findings (the render is refused, EInvoiceInvalidError) and the warnings (the X-E-Invoice-Report
// header and the receipt), and the errors of a check that could not finish. Knows nothing of HTTP.

import type { EInvoiceProfile } from '../profiles.ts';
import type { Finding } from '../rules/rule.ts';
import type { RuleSetName } from '../rules/rule-sets.ts';
import type { RuleFinding } from '../../shapes/einvoice-inspection-json.ts';

/** A finding as the API spells it: the same shape as POST /v1/einvoice/inspect's (shapes/einvoice-inspection-json.ts). */
export interface RuleReport {
  /** The rule set run, or null for a profile that is not an EN 16931 invoice (MINIMUM, BASIC WL). */
  rules: RuleSetName | null;
  fatal: RuleFinding[];
  warnings: RuleFinding[];
}

/**
 * XRECHNUNG is the XRechnung CIUS; BASIC, EN 16931 and EXTENDED declare EN 16931 compliance or
 * conformance, so the CEN rules apply. MINIMUM and BASIC WL lack terms EN 16931 makes mandatory
 * (lines, for one): they are not invoices under it and no official CEN verdict exists for them, so
 * only their XSD is checked (docs/decisions.md, "The rules on every render").
 */
export function ruleSetOfProfile(profile: EInvoiceProfile): RuleSetName | null {
  if (profile === 'XRECHNUNG') return 'xrechnung';
  if (profile === 'MINIMUM' || profile === 'BASIC WL') return null;
  return 'en16931';
}

export function reportOf(rules: RuleSetName | null, findings: readonly Finding[]): RuleReport {
  const wire = (finding: Finding): RuleFinding => ({ id: finding.id, detail: finding.text, location: finding.location });
  return {
    rules,
    fatal: findings.filter((finding) => finding.flag === 'fatal').map(wire),
    warnings: findings.filter((finding) => finding.flag === 'warning').map(wire),
  };
}

/** The e-invoice fails a fatal rule of its profile's set: each finding names the rule and the element. */
export class EInvoiceInvalidError extends Error {
  override readonly name = 'EInvoiceInvalidError';
  constructor(
    readonly field: string,
    readonly report: RuleReport,
  ) {
    const ids = [...new Set(report.fatal.map((finding) => finding.id))];
    super(`${field} fails ${ids.length === 1 ? 'the rule' : 'the rules'} ${ids.join(', ')} of ${setTitle(report.rules)}`);
  }
}

/** The thread was lost under the check: ended past its time, or stopped (out of memory, a crash). */
export class RuleCheckLostError extends Error {
  override readonly name = 'RuleCheckLostError';
  constructor(
    readonly why: 'timeout' | 'stopped',
    detail: string,
  ) {
    super(why === 'timeout' ? `the e-invoice rule check did not finish (${detail})` : `the e-invoice rule check stopped (${detail})`);
  }
}

/** Ids beyond this many are left out of the header (the body, the receipt or an inspect call has them all). */
const MAX_HEADER_IDS = 40;

/**
 * `rules=en16931; fatal=0; warnings=2; ids=BR-X,BR-Y`: the X-E-Invoice-Report header's value, the
 * same for a render's e_invoice, POST /v1/einvoice and a received invoice read (fatal ids first).
 */
export function reportHeader(report: RuleReport): string {
  const ids = [...new Set([...report.fatal, ...report.warnings].map((finding) => finding.id))].slice(0, MAX_HEADER_IDS);
  const parts = [`rules=${report.rules ?? 'none'}`, `fatal=${report.fatal.length}`, `warnings=${report.warnings.length}`];
  if (ids.length > 0) parts.push(`ids=${ids.join(',')}`);
  return parts.join('; ');
}

function setTitle(rules: RuleSetName | null): string {
  if (rules === 'xrechnung') return 'XRechnung 3.0';
  if (rules === 'peppol') return 'Peppol BIS Billing 3.0';
  return 'EN 16931';
}
