// CII data type rules (CII-DT-*, fatal ones): the attributes and child elements the CII data
// types have but EN 16931 does not use, which must not be written (an amount's currencyID but on
// the VAT total, a document reference's status, an address's PO box ...). Tables of (id, what).
// As in CEN's Schematron, an element is checked by the first group that claims it.

import type { Node } from '../xml/located-node.ts';
import type { Rule } from './rule.ts';

const LINES = 'rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem';
/** The identifiers CEN checks more strictly (DT-001..007) and so not with the other ids (DT-101..104). */
const PLAIN_IDS = [
  'rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID',
  'rsm:ExchangedDocument/ram:ID',
  `${LINES}/ram:AssociatedDocumentLineDocument/ram:LineID`,
  `${LINES}/ram:SpecifiedTradeProduct/ram:SellerAssignedID`,
];

const ramElements = (root: Node, suffix: string) =>
  root.descendants('*').filter((node) => node.path.split('/').at(-1)!.startsWith('ram:') && node.element.localName.endsWith(suffix));
const localName = (node: Node) => node.element.localName;
const typeCodeIs = (node: Node, codes: string[]) => node.all('ram:TypeCode').some((code) => codes.includes(code.text));
const additional = (node: Node) => localName(node) === 'AdditionalReferencedDocument';

type Group = (root: Node) => Node[];
const GROUPS: Record<string, Group> = {
  document: (root) => [root],
  plainIds: (root) => PLAIN_IDS.flatMap((path) => root.each(path)),
  otherIds: (root) => {
    const plain = new Set(PLAIN_IDS.flatMap((path) => root.each(path)).map((node) => node.path));
    return ramElements(root, 'ID').filter((node) => !plain.has(node.path));
  },
  typeCodes: (root) => root.descendants('ram:TypeCode'),
  amounts: (root) => ramElements(root, 'Amount').filter((node) => localName(node) !== 'TaxTotalAmount'),
  quantities: (root) => ramElements(root, 'Quantity'),
  documents: (root) => ramElements(root, 'ReferencedDocument'),
  periods: (root) => root.descendants('ram:BillingSpecifiedPeriod'),
  addresses: (root) => root.descendants('ram:PostalTradeAddress'),
};

/** [id, group, attribute] that must not be written. */
const NO_ATTRIBUTE: [string, keyof typeof GROUPS, string][] = [
  ['CII-DT-013', 'document', 'languageID'],
  ['CII-DT-014', 'document', 'languageLocaleID'],
  ...['schemeName', 'schemeAgencyName', 'schemeDataURI', 'schemeURI', 'schemeID', 'schemeAgencyID', 'schemeVersionID'].map(
    (name, n): [string, 'plainIds', string] => [`CII-DT-00${n + 1}`, 'plainIds', name],
  ),
  ...['schemeName', 'schemeAgencyName', 'schemeDataURI', 'schemeURI'].map((name, n): [string, 'otherIds', string] => [`CII-DT-10${n + 1}`, 'otherIds', name]),
  ['CII-DT-008', 'typeCodes', 'name'],
  ['CII-DT-009', 'typeCodes', 'listURI'],
  ['CII-DT-031', 'amounts', 'currencyID'],
  ['CII-DT-032', 'amounts', 'currencyCodeListVersionID'],
  ['CII-DT-034', 'quantities', 'unitCodeListID'],
  ['CII-DT-035', 'quantities', 'unitCodeListAgencyID'],
  ['CII-DT-036', 'quantities', 'unitCodeListAgencyName'],
];

/** [id, group, child path] that must not be written, and when it may be after all. */
const NO_CHILD: [string, keyof typeof GROUPS, string, ((node: Node) => boolean)?][] = [
  ['CII-DT-015', 'documents', 'ram:URIID', (node) => additional(node) && typeCodeIs(node, ['916'])],
  ['CII-DT-016', 'documents', 'ram:StatusCode'],
  ['CII-DT-017', 'documents', 'ram:CopyIndicator'],
  ['CII-DT-018', 'documents', 'ram:TypeCode', (node) => additional(node) && typeCodeIs(node, ['50', '130', '916'])],
  ['CII-DT-019', 'documents', 'ram:GlobalID'],
  ['CII-DT-020', 'documents', 'ram:RevisionID'],
  ['CII-DT-021', 'documents', 'ram:Name', (node) => additional(node) && typeCodeIs(node, ['916'])],
  ['CII-DT-022', 'documents', 'ram:AttachmentBinaryObject', (node) => additional(node) && typeCodeIs(node, ['916'])],
  ['CII-DT-023', 'documents', 'ram:Information'],
  ['CII-DT-024', 'documents', 'ram:ReferenceTypeCode', (node) => additional(node) && typeCodeIs(node, ['130'])],
  ['CII-DT-025', 'documents', 'ram:SectionName'],
  ['CII-DT-026', 'documents', 'ram:PreviousRevisionID'],
  ['CII-DT-027', 'documents', 'ram:FormattedIssueDateTime', (node) => localName(node) === 'InvoiceReferencedDocument'],
  ['CII-DT-028', 'documents', 'ram:EffectiveSpecifiedPeriod'],
  ['CII-DT-029', 'documents', 'ram:IssuerTradeParty'],
  ['CII-DT-030', 'documents', 'ram:AttachedSpecifiedBinaryFile'],
  ...(
    [
      'StartDateTime/udt:DateTime',
      'DurationMeasure',
      'InclusiveIndicator',
      'Description',
      'EndDateTime/udt:DateTime',
      'CompleteDateTime',
      'OpenIndicator',
      'SeasonCode',
      'ID',
      'Name',
      'SequenceNumeric',
      'StartDateFlexibilityCode',
      'ContinuousIndicator',
      'PurposeCode',
    ] as const
  ).map((child, n): [string, 'periods', string] => [`CII-DT-0${68 + n}`, 'periods', `ram:${child}`]),
  ...(
    [
      [82, 'ID'],
      [83, 'PostOfficeBox'],
      [84, 'BuildingName'],
      [86, 'LineFour'],
      [87, 'LineFive'],
      [88, 'StreetName'],
      [89, 'CitySubDivisionName'],
      [90, 'CountryName'],
      [91, 'CountrySubDivisionID'],
      [92, 'AttentionOf'],
      [93, 'CareOf'],
      [94, 'BuildingNumber'],
      [95, 'DepartmentName'],
      [96, 'AdditionalStreetName'],
    ] as const
  ).map(([n, child]): [string, 'addresses', string] => [`CII-DT-0${n}`, 'addresses', `ram:${child}`]),
];

const ciiRule = (id: string, text: string, failing: (root: Node) => Iterable<Node>): Rule => ({
  id,
  flag: 'fatal',
  text,
  *check({ invoice, root }) {
    if (invoice.syntax === 'CII' && root) for (const node of failing(root)) yield node.path;
  },
});

export const CII_DATATYPE_RULES: readonly Rule[] = [
  ...NO_ATTRIBUTE.map(([id, group, attribute]) =>
    ciiRule(id, `EN 16931 does not use the attribute ${attribute} here; it must not be written.`, (root) =>
      GROUPS[group]!(root).filter((node) => node.attr(attribute) !== undefined),
    ),
  ),
  ...NO_CHILD.map(([id, group, child, allowed]) =>
    ciiRule(id, `EN 16931 does not use ${child.replace('ram:', '')} here; it must not be written.`, (root) =>
      GROUPS[group]!(root).filter((node) => node.each(child).length > 0 && !allowed?.(node)),
    ),
  ),
  ciiRule('CII-DT-033', 'A quantity may give its unit only when the invoiced quantities give theirs.', (root) => {
    const billedWithUnit = root.each(`${LINES}/ram:SpecifiedLineTradeDelivery/ram:BilledQuantity`).some((quantity) => quantity.attr('unitCode') !== undefined);
    return billedWithUnit ? [] : GROUPS.quantities!(root).filter((node) => node.attr('unitCode') !== undefined);
  }),
  ciiRule('CII-DT-037', 'A tax must be VAT (TypeCode VAT) when its type is given.', (root) =>
    ramElements(root, 'TradeTax').filter((tax) => tax.all('ram:TypeCode').length > 0 && !tax.all('ram:TypeCode').some((code) => code.text === 'VAT')),
  ),
];
