// What an invoice says it follows: its specification identifier (BT-24) named as a profile a
// reader knows (XRechnung, Peppol BIS Billing 3.0, a Factur-X profile, plain EN 16931), and which
// of our rule sets that profile is checked by. Knows nothing of HTTP.

import { profileOfGuideline } from '../profiles.ts';
import type { RuleSetName } from '../rules/rule-sets.ts';

export interface SpecificationFacts {
  /** The profile's name, or null when BT-24 is missing or names none we know. */
  profile: string | null;
  /** The rule set that profile is checked by: its CIUS's, or the CEN rules. */
  ruleSet: RuleSetName;
}

const XRECHNUNG = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_';
const PEPPOL = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';

/** The profile of a BT-24 value; an extension of a CIUS (…#conformant#…) is still checked as that CIUS. */
export function specificationFacts(id: string | undefined): SpecificationFacts {
  if (id === undefined || id === '') return { profile: null, ruleSet: 'en16931' };
  if (id.startsWith(XRECHNUNG)) return { profile: 'XRechnung', ruleSet: 'xrechnung' };
  if (id.startsWith(PEPPOL)) return { profile: 'Peppol BIS Billing 3.0', ruleSet: 'peppol' };
  const facturX = profileOfGuideline(id);
  if (facturX === 'EN 16931') return { profile: 'EN 16931', ruleSet: 'en16931' };
  if (facturX) return { profile: `Factur-X ${facturX}`, ruleSet: 'en16931' };
  return { profile: null, ruleSet: 'en16931' };
}
