// CII syntax rules about structure (CII-SR-*, fatal ones): how many times CII may write an element
// EN 16931 uses once or must have, and that the payment means and VAT due date code have one value.
// Tables of (id, where, what); checked on the XML, as they are about CII itself.

import type { Node } from '../xml/located-node.ts';
import type { Rule } from './rule.ts';

const TRANSACTION = 'rsm:SupplyChainTradeTransaction';
const LINES = `${TRANSACTION}/ram:IncludedSupplyChainTradeLineItem`;
const SETTLEMENT = `${TRANSACTION}/ram:ApplicableHeaderTradeSettlement`;
const AGREEMENT = `${TRANSACTION}/ram:ApplicableHeaderTradeAgreement`;
const TOTALS = `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation`;

/** Where a rule looks: a path from the root, or `//name/...` starting from every such element. */
function places(root: Node, where: string): Node[] {
  if (!where.startsWith('//')) return root.each(where);
  const [first = '', ...rest] = where.slice(2).split('/');
  const starts = root.descendants(first);
  return rest.length === 0 ? starts : starts.flatMap((node) => node.each(rest.join('/')));
}
const last = (path: string) => path.split('/').at(-1)!.replace('ram:', '');

/** [id, where, what, how many]: 'one' exactly one, 'most' at most one, 'some' at least one. */
const COUNTS: [id: string, where: string, what: string, count: 'one' | 'most' | 'some'][] = [
  ['CII-SR-009', 'rsm:ExchangedDocumentContext', 'ram:GuidelineSpecifiedDocumentContextParameter', 'one'],
  ['CII-SR-010', 'rsm:ExchangedDocumentContext', 'ram:GuidelineSpecifiedDocumentContextParameter/ram:ID', 'one'],
  ['CII-SR-014', 'rsm:ExchangedDocument', 'ram:TypeCode', 'one'],
  ['CII-SR-069', `${LINES}/ram:SpecifiedTradeProduct/ram:ApplicableProductCharacteristic`, 'ram:Description', 'one'],
  ['CII-SR-072', `${LINES}/ram:SpecifiedTradeProduct/ram:ApplicableProductCharacteristic`, 'ram:Value', 'one'],
  ['CII-SR-441', `${LINES}/ram:SpecifiedLineTradeAgreement`, 'ram:NetPriceProductTradePrice/ram:ChargeAmount', 'most'],
  ['CII-SR-463', '//ram:SpecifiedTradeAllowanceCharge', 'ram:ChargeIndicator', 'some'],
  ['CII-SR-471', '//ram:SpecifiedTradeAllowanceCharge', 'ram:RateApplicablePercent', 'most'],
  ['CII-SR-472', '//ram:SpecifiedTradeAllowanceCharge', 'ram:CategoryTradeTax', 'most'],
  ['CII-SR-473', '//ram:SpecifiedTradeAllowanceCharge', 'ram:ActualAmount', 'most'],
  ['CII-SR-440', '//ram:GrossPriceProductTradePrice/ram:AppliedTradeAllowanceCharge', 'ram:ActualAmount', 'most'],
  ['CII-SR-455', AGREEMENT, 'ram:SellerTradeParty/ram:DefinedTradeContact', 'most'],
  ['CII-SR-456', AGREEMENT, 'ram:BuyerTradeParty/ram:DefinedTradeContact', 'most'],
  ['CII-SR-459', AGREEMENT, 'ram:SellerTradeParty/ram:URIUniversalCommunication', 'most'],
  ['CII-SR-460', AGREEMENT, 'ram:BuyerTradeParty/ram:URIUniversalCommunication', 'most'],
  ['CII-SR-461', SETTLEMENT, 'ram:ApplicableTradeTax/ram:TaxPointDate', 'most'],
  ...[
    'LineTotalAmount',
    'ChargeTotalAmount',
    'AllowanceTotalAmount',
    'TaxBasisTotalAmount',
    'RoundingAmount',
    'GrandTotalAmount',
    'InformationAmount',
    'TotalPrepaidAmount',
    'TotalDiscountAmount',
    'TotalAllowanceChargeAmount',
    'DuePayableAmount',
    'RetailValueExcludingTaxInformationAmount',
    'TotalDepositFeeInformationAmount',
    'ProductValueExcludingTobaccoTaxInformationAmount',
    'TotalRetailValueInformationAmount',
    'GrossLineTotalAmount',
    'NetLineTotalAmount',
    'NetIncludingTaxesLineTotalAmount',
  ].map((name, n): [string, string, string, 'most'] => [`CII-SR-${477 + n}`, TOTALS, `ram:${name}`, 'most']),
];

const countRules: Rule[] = COUNTS.map(([id, where, what, count]) => ({
  id,
  flag: 'fatal',
  text:
    count === 'one'
      ? `${last(where)} must have exactly one ${last(what)}.`
      : count === 'some'
        ? `Each ${last(where.replace('//', ''))} must have a ${last(what)}.`
        : `${last(where)} may have at most one ${last(what)}.`,
  *check({ invoice, root }) {
    if (invoice.syntax !== 'CII' || !root) return;
    for (const place of places(root, where)) {
      const found = place.each(what).length;
      if ((count === 'one' && found !== 1) || (count === 'most' && found > 1) || (count === 'some' && found === 0)) yield place.path;
    }
  },
}));

const ciiRule = (id: string, text: string, failing: (root: Node) => Iterable<Node>): Rule => ({
  id,
  flag: 'fatal',
  text,
  *check({ invoice, root }) {
    if (invoice.syntax === 'CII' && root) for (const node of failing(root)) yield node.path;
  },
});

/** The nodes after the first whose (normalised) text differs from the first one's. */
const otherValues = (nodes: Node[]) => nodes.filter((node) => node.text.trim().replace(/\s+/g, ' ') !== nodes[0]!.text.trim().replace(/\s+/g, ' '));

export const CII_STRUCTURE_RULES: readonly Rule[] = [
  ...countRules,
  ciiRule('CII-SR-046', "An item's standard identifier (BT-157) must give its scheme.", (root) =>
    root.each(`${LINES}/ram:SpecifiedTradeProduct`).filter((product) => {
      const ids = product.all('ram:GlobalID');
      return ids.length > 0 && !ids.some((id) => id.attr('schemeID') !== undefined);
    }),
  ),
  ciiRule('CII-SR-090', "An item's country of origin (BT-159) must be one country code.", (root) =>
    root
      .each(`${LINES}/ram:SpecifiedTradeProduct`)
      .filter((product) => product.all('ram:OriginTradeCountry').length > 0 && product.each('ram:OriginTradeCountry/ram:ID').length !== 1),
  ),
  ciiRule('CII-SR-462', 'The VAT point date code (BT-8) may have only one value.', (root) => {
    const codes = root.descendants('ram:ApplicableTradeTax').flatMap((tax) => tax.all('ram:DueDateTypeCode'));
    return new Set(codes.map((code) => code.text)).size > 1 ? root.each(SETTLEMENT) : [];
  }),
  ciiRule('CII-SR-467', 'Every payment means must have the same payment means code (BT-81).', (root) =>
    otherValues(root.descendants('ram:SpecifiedTradeSettlementPaymentMeans').flatMap((means) => means.all('ram:TypeCode'))),
  ),
  ciiRule('CII-SR-468', 'Every payment means must have the same payment means text (BT-82).', (root) =>
    otherValues(root.descendants('ram:SpecifiedTradeSettlementPaymentMeans').flatMap((means) => means.all('ram:Information'))),
  ),
  ciiRule('CII-SR-469', 'The remittance information (BT-83) may be written at most once.', (root) =>
    root
      .descendants('ram:ApplicableHeaderTradeSettlement')
      .flatMap((settlement) => settlement.all('ram:PaymentReference'))
      .slice(1, 2),
  ),
];
