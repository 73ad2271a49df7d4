// The XMP a Factur-X / ZUGFeRD PDF carries (Factur-X 1.07, section 6.2.2 and annex A): an
// rdf:Description with the fx: properties naming the embedded XML and its profile, and the PDF/A
// extension schema that declares those properties (PDF/A forbids undeclared XMP properties).

import { PROFILES, type EInvoiceProfile } from './profiles.ts';

export const FX_NAMESPACE = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';
/** fx:Version: the version of the Factur-X XMP schema, 1.0 for every profile of Factur-X 1.0.x and ZUGFeRD 2.x. */
export const FX_VERSION = '1.0';

const PROPERTIES: [string, string][] = [
  ['DocumentFileName', 'The name of the embedded XML document'],
  ['DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER'],
  ['Version', 'The actual version of the standard applying to the embedded XML document'],
  ['ConformanceLevel', 'The conformance level of the embedded XML document'],
];

/** The two rdf:Descriptions for an invoice of this profile. */
export function facturXXmp(profile: EInvoiceProfile): string {
  const property = ([name, description]: [string, string]) =>
    [
      '<rdf:li rdf:parseType="Resource">',
      `<pdfaProperty:name>${name}</pdfaProperty:name>`,
      '<pdfaProperty:valueType>Text</pdfaProperty:valueType>',
      '<pdfaProperty:category>external</pdfaProperty:category>',
      `<pdfaProperty:description>${description}</pdfaProperty:description>`,
      '</rdf:li>',
    ].join('\n');
  return [
    '<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">',
    '<pdfaExtension:schemas>',
    '<rdf:Bag>',
    '<rdf:li rdf:parseType="Resource">',
    '<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>',
    `<pdfaSchema:namespaceURI>${FX_NAMESPACE}</pdfaSchema:namespaceURI>`,
    '<pdfaSchema:prefix>fx</pdfaSchema:prefix>',
    '<pdfaSchema:property>',
    '<rdf:Seq>',
    ...PROPERTIES.map(property),
    '</rdf:Seq>',
    '</pdfaSchema:property>',
    '</rdf:li>',
    '</rdf:Bag>',
    '</pdfaExtension:schemas>',
    '</rdf:Description>',
    `<rdf:Description rdf:about="" xmlns:fx="${FX_NAMESPACE}">`,
    '<fx:DocumentType>INVOICE</fx:DocumentType>',
    `<fx:DocumentFileName>${PROFILES[profile].filename}</fx:DocumentFileName>`,
    `<fx:Version>${FX_VERSION}</fx:Version>`,
    `<fx:ConformanceLevel>${profile}</fx:ConformanceLevel>`,
    '</rdf:Description>',
  ].join('\n');
}
