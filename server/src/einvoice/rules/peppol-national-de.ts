// Peppol's German national rules (DE-R-*): when seller and buyer are both in Germany, a Peppol
// invoice must meet what XRechnung asks (BR-DE-*). Peppol states them for UBL only, in the same
// words, so each is our XRechnung rule under Peppol's id, checked on UBL between German parties.

import { bothIn } from './peppol.ts';
import type { Rule } from './rule.ts';
import { XRECHNUNG_RULES } from './xrechnung.ts';

/** Peppol's id -> the XRechnung rule it restates. The flags (fatal or warning) are the same in both. */
const SAME_AS: [peppol: string, xrechnung: string][] = [
  ['DE-R-001', 'BR-DE-1'],
  ['DE-R-002', 'BR-DE-2'],
  ['DE-R-003', 'BR-DE-3'],
  ['DE-R-004', 'BR-DE-4'],
  ['DE-R-005', 'BR-DE-5'],
  ['DE-R-006', 'BR-DE-6'],
  ['DE-R-007', 'BR-DE-7'],
  ['DE-R-008', 'BR-DE-8'],
  ['DE-R-009', 'BR-DE-9'],
  ['DE-R-010', 'BR-DE-10'],
  ['DE-R-011', 'BR-DE-11'],
  ['DE-R-014', 'BR-DE-14'],
  ['DE-R-015', 'BR-DE-15'],
  ['DE-R-016', 'BR-DE-16'],
  ['DE-R-017', 'BR-DE-17'],
  ['DE-R-018', 'BR-DE-18'],
  ['DE-R-019', 'BR-DE-19'],
  ['DE-R-020', 'BR-DE-20'],
  ['DE-R-022', 'BR-DE-22'],
  ['DE-R-023-1', 'BR-DE-23-a'],
  ['DE-R-023-2', 'BR-DE-23-b'],
  ['DE-R-024-1', 'BR-DE-24-a'],
  ['DE-R-024-2', 'BR-DE-24-b'],
  ['DE-R-025-1', 'BR-DE-25-a'],
  ['DE-R-025-2', 'BR-DE-25-b'],
  ['DE-R-026', 'BR-DE-26'],
  ['DE-R-027', 'BR-DE-27'],
  ['DE-R-028', 'BR-DE-28'],
  ['DE-R-030', 'BR-DE-30'],
  ['DE-R-031', 'BR-DE-31'],
];

export const PEPPOL_GERMAN_RULES: readonly Rule[] = SAME_AS.map(([id, xrechnungId]) => {
  const rule = XRECHNUNG_RULES.find((candidate) => candidate.id === xrechnungId)!;
  return {
    ...rule,
    id,
    text: `Between German parties: ${rule.text[0]!.toLowerCase()}${rule.text.slice(1)}`
      .replace('An XRechnung', 'the invoice')
      .replace('an XRechnung', 'the invoice'),
    check: (input) => (input.invoice.syntax === 'UBL' && bothIn(input.invoice, 'DE') ? rule.check(input) : []),
  };
});
