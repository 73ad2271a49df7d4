// UBL syntax rules (UBL-SR-*, UBL-DT-*): how many times UBL may write an element EN 16931 allows
// once, and the form of amounts and attachments. Checked on the XML, as they are about UBL itself.
// The cardinalities are a table: (id, where, what, at most).

import type { Node } from '../xml/located-node.ts';
import type { Rule } from './rule.ts';

type Where =
  | 'document'
  | 'supplier'
  | 'customer'
  | 'line'
  | 'means'
  | 'taxRepresentative'
  | 'delivery'
  | 'subtotal'
  | 'supportingDocument'
  | 'billingReference';

const AT_MOST_ONCE: [id: string, where: Where, what: string, term: string][] = [
  ['UBL-SR-01', 'document', 'cac:ContractDocumentReference/cbc:ID', 'contract reference (BT-12)'],
  ['UBL-SR-02', 'document', 'cac:ReceiptDocumentReference/cbc:ID', 'receiving advice reference (BT-15)'],
  ['UBL-SR-03', 'document', 'cac:DespatchDocumentReference/cbc:ID', 'despatch advice reference (BT-16)'],
  ['UBL-SR-05', 'document', 'cac:PaymentTerms/cbc:Note', 'payment terms (BT-20)'],
  ['UBL-SR-08', 'document', 'cac:InvoicePeriod', 'invoicing period (BG-14)'],
  ['UBL-SR-24', 'document', 'cac:Delivery', 'delivery (BG-13)'],
  ['UBL-SR-39', 'document', 'cac:ProjectReference/cbc:ID', 'project reference (BT-11)'],
  ['UBL-SR-45', 'document', 'cac:PaymentMeans/cbc:PaymentDueDate', 'payment due date (BT-9)'],
  ['UBL-SR-49', 'document', 'cac:InvoicePeriod/cbc:DescriptionCode', 'VAT point date code (BT-8)'],
  ['UBL-SR-54', 'document', 'cac:PaymentMeans/cac:CardAccount', 'payment card (BG-18)'],
  ['UBL-SR-55', 'document', 'cac:PaymentMeans/cac:PaymentMandate', 'direct debit (BG-19)'],
  ['UBL-SR-56', 'document', 'cac:OriginatorDocumentReference/cbc:ID', 'tender or lot reference (BT-17)'],
  ['UBL-SR-09', 'supplier', 'cac:PartyLegalEntity/cbc:RegistrationName', "seller's name (BT-27)"],
  ['UBL-SR-10', 'supplier', 'cac:PartyName/cbc:Name', "seller's trading name (BT-28)"],
  ['UBL-SR-11', 'supplier', 'cac:PartyLegalEntity/cbc:CompanyID', "seller's legal registration (BT-30)"],
  ['UBL-SR-14', 'supplier', 'cac:PartyLegalEntity/cbc:CompanyLegalForm', "seller's additional legal information (BT-33)"],
  ['UBL-SR-15', 'customer', 'cac:PartyLegalEntity/cbc:RegistrationName', "buyer's name (BT-44)"],
  ['UBL-SR-16', 'customer', 'cac:PartyIdentification/cbc:ID', "buyer's identifier (BT-46)"],
  ['UBL-SR-17', 'customer', 'cac:PartyLegalEntity/cbc:CompanyID', "buyer's legal registration (BT-47)"],
  ['UBL-SR-40', 'customer', 'cac:PartyName/cbc:Name', "buyer's trading name (BT-45)"],
  ['UBL-SR-34', 'line', 'cbc:Note', 'line note (BT-127)'],
  ['UBL-SR-35', 'line', 'cac:OrderLineReference/cbc:LineID', 'order line reference (BT-132)'],
  ['UBL-SR-36', 'line', 'cac:InvoicePeriod', 'line period (BG-26)'],
  ['UBL-SR-37', 'line', 'cac:Price/cac:AllowanceCharge/cbc:Amount', 'price discount (BT-147)'],
  ['UBL-SR-50', 'line', 'cac:Item/cbc:Description', 'item description (BT-154)'],
  ['UBL-SR-52', 'line', 'cac:DocumentReference', 'line object identifier (BT-128)'],
  ['UBL-SR-26', 'means', 'cbc:PaymentID', 'remittance information (BT-83)'],
  ['UBL-SR-27', 'means', 'cbc:PaymentMeansCode', 'payment means code (BT-81)'],
  ['UBL-SR-28', 'means', 'cac:PaymentMandate/cbc:ID', 'mandate reference (BT-89)'],
  ['UBL-SR-22', 'taxRepresentative', 'cac:PartyName/cbc:Name', "tax representative's name (BT-62)"],
  ['UBL-SR-23', 'taxRepresentative', 'cac:PartyTaxScheme/cbc:CompanyID', "tax representative's VAT identifier (BT-63)"],
  ['UBL-SR-25', 'delivery', 'cac:DeliveryParty/cac:PartyName/cbc:Name', 'deliver-to party name (BT-70)'],
  ['UBL-SR-32', 'subtotal', 'cac:TaxCategory/cbc:TaxExemptionReason', 'VAT exemption reason (BT-120)'],
  ['UBL-SR-33', 'supportingDocument', 'cbc:DocumentDescription', 'supporting document description (BT-123)'],
  ['UBL-SR-06', 'billingReference', 'cac:InvoiceDocumentReference', 'preceding invoice reference (BG-3)'],
];

function places(root: Node, where: Where): Node[] {
  switch (where) {
    case 'document':
      return [root];
    case 'supplier':
      return root.each('cac:AccountingSupplierParty/cac:Party');
    case 'customer':
      return root.each('cac:AccountingCustomerParty/cac:Party');
    case 'line':
      return [...root.all('cac:InvoiceLine'), ...root.all('cac:CreditNoteLine')];
    case 'means':
      return root.all('cac:PaymentMeans');
    case 'taxRepresentative':
      return root.all('cac:TaxRepresentativeParty');
    case 'delivery':
      return root.all('cac:Delivery');
    case 'subtotal':
      return root.each('cac:TaxTotal/cac:TaxSubtotal');
    case 'supportingDocument':
      return root.all('cac:AdditionalDocumentReference');
    case 'billingReference':
      return root.all('cac:BillingReference');
  }
}

const cardinalityRules: Rule[] = AT_MOST_ONCE.map(([id, where, what, term]) => ({
  id,
  flag: 'fatal',
  text: `The ${term} may be written at most once.`,
  *check({ invoice, root }) {
    if (invoice.syntax !== 'UBL' || !root) return;
    for (const place of places(root, where)) {
      const found = place.each(what);
      if (found.length > 1) yield found[1]!.path;
    }
  },
}));

const ublRule = (id: string, text: string, failing: (root: Node) => Iterable<string>): Rule => ({
  id,
  flag: 'fatal',
  text,
  *check({ invoice, root }) {
    if (invoice.syntax === 'UBL' && root) yield* failing(root);
  },
});

const binaries = (root: Node) => root.descendants('*').filter((node) => node.element.localName.endsWith('BinaryObject'));
const allowancesCharges = (root: Node, charge: boolean) =>
  root.descendants('cac:AllowanceCharge').filter((ac) => ac.all('cbc:ChargeIndicator').some((node) => ['true', '1'].includes(node.text.trim()) === charge));
const taxSchemeIds = (party: Node | undefined, vat: boolean) =>
  party
    ?.all('cac:PartyTaxScheme')
    .filter((scheme) => scheme.all('cac:TaxScheme').some((tax) => ((tax.one('cbc:ID')?.text.toUpperCase() ?? '') === 'VAT') === vat))
    .flatMap((scheme) => scheme.all('cbc:CompanyID')) ?? [];
const typed = (root: Node, type: string) =>
  root.descendants('cac:AdditionalDocumentReference').filter((ref) => ref.all('cbc:DocumentTypeCode').some((code) => code.text === type));
/** The second of a list, where "at most one" is broken. */
const second = (nodes: Node[]) => (nodes.length > 1 ? [nodes[1]!.path] : []);
/** The first repeat of a value among the nodes, where "one distinct value" is broken. */
const secondDistinct = (nodes: Node[]) => {
  const distinct = nodes.filter((node, n) => !nodes.slice(0, n).some((before) => before.text === node.text));
  return second(distinct);
};
/** UBL-DT-01: every amount but prices (and the price discount) has at most two decimals. */
const amounts = (root: Node) =>
  [root, ...root.descendants('*')].filter(
    (node) => node.element.tagName.endsWith('Amount') && !node.element.tagName.endsWith('PriceAmount') && !node.path.includes('/cac:Price/cac:AllowanceCharge'),
  );

export const UBL_SYNTAX_RULES: readonly Rule[] = [
  ...cardinalityRules,
  ublRule('UBL-SR-07', 'A billing reference must give the preceding invoice number (BT-25).', (root) =>
    root
      .all('cac:BillingReference')
      .filter((ref) => !ref.at('cac:InvoiceDocumentReference/cbc:ID'))
      .map((ref) => ref.path),
  ),
  ublRule('UBL-SR-48', 'Each line must have exactly one item VAT category (BT-151).', (root) =>
    [...root.all('cac:InvoiceLine'), ...root.all('cac:CreditNoteLine')]
      .filter((line) => line.each('cac:Item/cac:ClassifiedTaxCategory').length !== 1)
      .map((line) => line.path),
  ),
  ublRule('UBL-SR-51', 'An address may have at most one address line (BT-162).', (root) =>
    [...root.descendants('cac:PostalAddress'), ...root.descendants('cac:Address')]
      .filter((address) => address.all('cac:AddressLine').length > 1)
      .map((address) => address.path),
  ),
  ublRule('UBL-SR-53', 'A party tax scheme must give both the tax scheme and the identifier.', (root) =>
    root
      .descendants('cac:PartyTaxScheme')
      .filter((scheme) => !scheme.at('cac:TaxScheme/cbc:ID') || !scheme.one('cbc:CompanyID'))
      .map((scheme) => scheme.path),
  ),
  ublRule('UBL-DT-06', 'An attached binary object must say its MIME type.', (root) =>
    binaries(root)
      .filter((node) => node.attr('mimeCode') === undefined)
      .map((node) => node.path),
  ),
  ublRule('UBL-DT-07', 'An attached binary object must give its file name.', (root) =>
    binaries(root)
      .filter((node) => node.attr('filename') === undefined)
      .map((node) => node.path),
  ),
  ublRule('UBL-SR-04', 'The invoiced object identifier (BT-18) may be written at most once.', (root) =>
    second(
      root
        .all('cac:AdditionalDocumentReference')
        .filter((ref) => ref.all('cbc:DocumentTypeCode').some((code) => code.text === '130'))
        .flatMap((ref) => ref.all('cbc:ID')),
    ),
  ),
  ublRule('UBL-SR-12', "The seller's VAT identifier (BT-31) may be written at most once.", (root) =>
    second(taxSchemeIds(root.at('cac:AccountingSupplierParty/cac:Party'), true)),
  ),
  ublRule('UBL-SR-13', "The seller's tax registration identifier (BT-32) may be written at most once.", (root) =>
    second(taxSchemeIds(root.at('cac:AccountingSupplierParty/cac:Party'), false)),
  ),
  ublRule('UBL-SR-18', "The buyer's VAT identifier (BT-48) may be written at most once.", (root) =>
    second(taxSchemeIds(root.at('cac:AccountingCustomerParty/cac:Party'), true)),
  ),
  ...(
    [
      [
        'UBL-SR-19',
        "The payee's name (BT-59) must be written once and differ from the seller's name.",
        (payee: Node) => payee.each('cac:PartyName/cbc:Name').length > 1,
      ],
      [
        'UBL-SR-20',
        "The payee's identifier (BT-60) may be written once, and the payee's name must differ from the seller's.",
        (payee: Node) => payee.each('cac:PartyIdentification/cbc:ID').filter((id) => id.attr('schemeID')?.toUpperCase() !== 'SEPA').length > 1,
      ],
      [
        'UBL-SR-21',
        "The payee's legal registration (BT-61) may be written once, and the payee's name must differ from the seller's.",
        (payee: Node) => payee.each('cac:PartyLegalEntity/cbc:CompanyID').length > 1,
      ],
    ] as const
  ).map(([id, text, tooMany]) =>
    ublRule(id, text, (root) => {
      const seller = root.each('cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName').map((name) => name.text);
      // XPath's != over sequences: true when some payee name differs from some seller name; false when either is missing.
      const differs = (payee: Node) => payee.each('cac:PartyName/cbc:Name').some((name) => seller.some((other) => other !== name.text));
      return root
        .descendants('cac:PayeeParty')
        .filter((payee) => tooMany(payee) || !differs(payee))
        .map((payee) => payee.path);
    }),
  ),
  ublRule('UBL-SR-29', 'The bank assigned creditor identifier (BT-90) may be written at most once.', (root) =>
    second(
      root
        .descendants('cac:PartyIdentification')
        .flatMap((pid) => pid.all('cbc:ID'))
        .filter((id) => id.attr('schemeID')?.toUpperCase() === 'SEPA'),
    ),
  ),
  ublRule('UBL-SR-30', 'An allowance may give at most one reason (BT-97, BT-139).', (root) =>
    allowancesCharges(root, false).flatMap((ac) => second(ac.all('cbc:AllowanceChargeReason'))),
  ),
  ublRule('UBL-SR-31', 'A charge may give at most one reason (BT-104, BT-144).', (root) =>
    allowancesCharges(root, true).flatMap((ac) => second(ac.all('cbc:AllowanceChargeReason'))),
  ),
  ublRule('UBL-SR-42', 'The seller may have at most two tax schemes (VAT identifier and tax registration).', (root) =>
    root
      .each('cac:AccountingSupplierParty/cac:Party')
      .flatMap((party) => party.all('cac:PartyTaxScheme').slice(2, 3))
      .map((scheme) => scheme.path),
  ),
  ublRule('UBL-SR-43', 'A document reference must be a supporting document, an invoiced object (130) or, in a credit note, a project (50).', (root) =>
    root
      .descendants('cac:AdditionalDocumentReference')
      .filter((ref) => {
        const types = ref.all('cbc:DocumentTypeCode').map((code) => code.text);
        const plain = !ref.all('cbc:ID').some((id) => id.attr('schemeID') !== undefined) && types.length === 0;
        return !(types.includes('130') || (root.element.localName === 'CreditNote' && types.includes('50')) || plain);
      })
      .map((ref) => ref.path),
  ),
  ublRule('UBL-SR-44', 'The remittance information (BT-83) may have only one value.', (root) => secondDistinct(root.descendants('cbc:PaymentID'))),
  ublRule('UBL-SR-46', 'The payment means text (BT-82) may be written at most once.', (root) =>
    second(root.each('cac:PaymentMeans/cbc:PaymentMeansCode').filter((code) => code.attr('name') !== undefined)),
  ),
  ublRule('UBL-SR-47', 'The payment means code (BT-81) may have only one value.', (root) => secondDistinct(root.descendants('cbc:PaymentMeansCode'))),
  ublRule('UBL-DT-01', 'An amount may have at most two decimals (prices excepted).', (root) =>
    amounts(root)
      .filter((node) => node.text.split('.').slice(1).join('.').length > 2)
      .map((node) => node.path),
  ),
  ublRule('UBL-CR-666', 'An invoiced object reference (document type 130) must not carry an attachment.', (root) =>
    typed(root, '130')
      .flatMap((ref) => ref.all('cac:Attachment'))
      .map((node) => node.path),
  ),
  ublRule('UBL-CR-673', 'An invoiced object reference (document type 130) must not carry a description.', (root) =>
    typed(root, '130')
      .flatMap((ref) => ref.all('cbc:DocumentDescription'))
      .map((node) => node.path),
  ),
];
