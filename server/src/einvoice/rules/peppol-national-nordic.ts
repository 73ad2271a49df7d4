// Peppol's national rules for Norway (NO-R), Denmark (DK-R), Sweden (SE-R) and Iceland (IS-R),
// fatal ones only. Each applies when the seller (and for some the buyer) is in that country; the
// CII and UBL artefacts differ in places, and each syntax follows its own.

import type { Invoice } from '../model/invoice-model.ts';
import type { Node } from '../xml/located-node.ts';
import { code, filled, missing } from './facts.ts';
import { norwegianOrgNumberValid, swedishOrgNumberValid } from './peppol-identifiers.ts';
import { peppolVatId, supplierCountry, xpathNumber } from './peppol-parties.ts';
import { xmlRule } from './peppol-codes.ts';
import { eachRule, type Rule, rule } from './rule.ts';

/** Seller and buyer postal countries as written (Peppol's DK and IS rules do not trim or upper-case). */
const exactly = (i: Invoice, country: string, buyerToo = false) =>
  i.seller?.address?.countryCode?.value === country && (!buyerToo || i.buyer?.address?.countryCode?.value === country);
const meansNotIn = (codes: string) => (i: Invoice) => i.paymentMeans.filter((means) => !codes.split(' ').includes(code(means.typeCode) ?? ''));
const prefix = (node: Node | undefined) => (node?.text ?? '').slice(0, 3);
const sweden = (i: Invoice) => i.seller?.address?.countryCode?.value === 'SE';
const swedishVat = (i: Invoice) => sweden(i) && (peppolVatId(i, i.seller?.vatId)?.value ?? '').startsWith('SE');
const eindagi = (root: Node) => root.all('cac:AdditionalDocumentReference').filter((ref) => ref.one('cbc:DocumentDescription')?.text === 'EINDAGI');
const accountOf = (root: Node, means: string) => root.all('cac:PaymentMeans').filter((pm) => pm.one('cbc:PaymentMeansCode')?.text === means);

/** Denmark's payment means checks (DK-R-006..011) on UBL Invoice payment means, then on CII. */
/** `settlement` is CII's header settlement, where the payment reference and creditor id sit beside the means. */
function danishPaymentFaults(pm: Node, settlement?: Node): string[] {
  const ubl = !settlement;
  const kind = (ubl ? pm.one('cbc:PaymentMeansCode') : pm.one('ram:TypeCode'))?.text ?? '';
  const paymentId = ubl ? pm.one('cbc:PaymentID') : settlement.one('ram:PaymentReference');
  const account = ubl ? pm.at('cac:PayeeFinancialAccount/cbc:ID') : pm.at('ram:PayeePartyCreditorFinancialAccount/ram:IBANID');
  const faults: string[] = [];
  const id = prefix(paymentId);
  const idLength = paymentId?.text.length ?? 0;
  if (['31', '42'].includes(kind)) {
    const branch = ubl
      ? pm.at('cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID')
      : pm.at('ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID');
    if (!account?.text.trim() || !branch?.text.trim()) faults.push('DK-R-006');
  }
  if (kind === '49') {
    const [mandate, payer] = ubl
      ? [pm.at('cac:PaymentMandate/cbc:ID'), pm.at('cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID')]
      : [settlement.one('ram:CreditorReferenceID'), pm.at('ram:SpecifiedTradePaymentTerms/ram:DirectDebitMandateID')];
    if (!mandate?.text.trim() || !payer?.text.trim()) faults.push('DK-R-007');
  }
  if (kind === '50') {
    const accountOk = ubl ? /^[0-9]{7,8}$/.test(account?.text ?? '') : account?.text.length === 7;
    if (!['01#', '04#', '15#'].includes(id) || !accountOk) faults.push('DK-R-008');
    if (['04#', '15#'].includes(id) && idLength !== 19) faults.push('DK-R-009');
  }
  if (kind === '93') {
    if (!['71#', '73#', '75#'].includes(id) || account?.text.length !== 8) faults.push('DK-R-010');
    if (['71#', '75#'].includes(id) && idLength !== 18 && idLength !== 19) faults.push('DK-R-011');
  }
  return faults;
}

function danishPaymentRule(id: string, text: string): Rule {
  return xmlRule(id, text, {
    UBL: (root, i) => (i.root === 'Invoice' && exactly(i, 'DK', true) ? root.all('cac:PaymentMeans').filter((pm) => danishPaymentFaults(pm).includes(id)) : []),
    CII: (root, i) => {
      const settlement = root.at('rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement');
      if (!settlement || !exactly(i, 'DK', true)) return [];
      return settlement.all('ram:SpecifiedTradeSettlementPaymentMeans').filter((pm) => danishPaymentFaults(pm, settlement).includes(id));
    },
  });
}

/** DK-R-004: a non-VAT tax (reason code ZZZ) names its 4-digit tax category or a #-separated text. */
function danishTaxReasonOk(reason: string | undefined): boolean {
  if (reason === undefined) return false;
  const digits = reason.trim();
  if (digits.length === 4 && xpathNumber(reason) !== undefined && xpathNumber(reason)! >= 0 && xpathNumber(reason)! <= 9999) return true;
  return reason.includes('#') && !reason.startsWith('#') && !reason.endsWith('#');
}

export const PEPPOL_NORDIC_RULES: readonly Rule[] = [
  rule('NO-R-001', "A Norwegian seller's VAT identifier (BT-31) must be NO, a valid organisation number and MVA.", (i) => {
    const vat = i.seller?.vatId?.value ?? '';
    // Peppol's CII variant looks for a VAT scheme CII never writes, so only UBL is checked.
    if (i.syntax !== 'UBL' || supplierCountry(i) !== 'NO' || !vat.startsWith('NO')) return false;
    return !(/^[0-9]{9}MVA$/.test(vat.slice(2)) && norwegianOrgNumberValid(vat.slice(2, 11))) && i.seller!.vatId!.path;
  }),
  rule(
    'DK-R-002',
    'A Danish seller must give its legal registration identifier (BT-30).',
    (i) => exactly(i, 'DK') && !filled(i.seller?.legalRegistration) && missing(i.seller?.path ?? i.path, 'BT-30'),
  ),
  eachRule(
    'DK-R-004',
    'Between Danish parties, a non-VAT tax (reason code ZZZ) must give its 4-digit tax category, or a reason with an inner #, as the reason (BT-97/BT-104).',
    (i) =>
      exactly(i, 'DK', true) ? (i.syntax === 'UBL' ? [...i.allowancesCharges, ...i.lines.flatMap((line) => line.allowancesCharges)] : i.allowancesCharges) : [],
    (entry) => entry.reasonCode?.value === 'ZZZ' && !danishTaxReasonOk(entry.reason?.value),
  ),
  eachRule(
    'DK-R-005',
    'Between Danish parties, the payment means code (BT-81) must be one of 1 10 31 42 48 49 50 58 59 93 97.',
    (i) => (exactly(i, 'DK', true) && (i.syntax === 'CII' || i.root === 'Invoice') ? meansNotIn('1 10 31 42 48 49 50 58 59 93 97')(i) : []),
    () => true,
  ),
  danishPaymentRule('DK-R-006', 'Between Danish parties, payment means 31 or 42 must give the bank account and its registration (branch) number.'),
  danishPaymentRule('DK-R-007', 'Between Danish parties, a direct debit (49) must give the mandate reference and the debited account.'),
  danishPaymentRule('DK-R-008', 'Between Danish parties, a giro payment (50) must give a payment id starting 01#, 04# or 15# and a 7 or 8 digit giro account.'),
  danishPaymentRule('DK-R-009', 'Between Danish parties, a giro payment id starting 04# or 15# must be 19 characters long.'),
  danishPaymentRule(
    'DK-R-010',
    'Between Danish parties, an FIK payment (93) must give a payment id starting 71#, 73# or 75# and an 8 character creditor number.',
  ),
  danishPaymentRule('DK-R-011', 'Between Danish parties, an FIK payment id starting 71# or 75# must be 18 or 19 characters long.'),
  xmlRule('DK-R-013', 'Between Danish parties, a party identifier (BT-29, BT-46) must give its scheme.', {
    UBL: (root, i) =>
      exactly(i, 'DK', true)
        ? ['cac:AccountingSupplierParty', 'cac:AccountingCustomerParty']
            .flatMap((party) => root.each(`${party}/cac:Party/cac:PartyIdentification`))
            .filter((pid) => pid.one('cbc:ID') && !pid.one('cbc:ID')!.attr('schemeID')?.trim())
        : [],
    CII: (root, i) =>
      exactly(i, 'DK', true)
        ? ['ram:SellerTradeParty', 'ram:BuyerTradeParty']
            .flatMap((party) => root.each(`rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/${party}/ram:GlobalID`).slice(0, 1))
            .filter((id) => !id.attr('schemeID')?.trim())
        : [],
  }),
  rule(
    'DK-R-014',
    "A Danish seller's legal registration (BT-30) must use scheme 0184.",
    (i) => exactly(i, 'DK') && !!i.seller?.legalRegistration && i.seller.legalRegistration.scheme?.trim() !== '0184' && i.seller.legalRegistration.path,
  ),
  rule('DK-R-016', 'Between Danish parties, a credit note must not have a negative amount due (BT-115).', (i) => {
    const creditNote = i.syntax === 'UBL' ? i.root === 'CreditNote' : code(i.typeCode) === '381';
    const payable = xpathNumber(i.totals?.payable?.value);
    return exactly(i, 'DK', true) && creditNote && payable !== undefined && payable < 0 && i.totals!.payable!.path;
  }),
  rule(
    'SE-R-001',
    'A Swedish seller’s VAT identifier (BT-31) must be 14 characters.',
    (i) => swedishVat(i) && i.seller!.vatId!.value.trim().length !== 14 && i.seller!.vatId!.path,
  ),
  rule(
    'SE-R-002',
    'A Swedish seller’s VAT identifier (BT-31) must be numeric after SE (12 digits).',
    (i) => swedishVat(i) && xpathNumber(i.seller!.vatId!.value.slice(2, 14)) === undefined && i.seller!.vatId!.path,
  ),
  ...(
    [
      ['SE-R-003', 'A Swedish seller’s organisation number (BT-30) must be numeric.', (value: string) => xpathNumber(value) !== undefined],
      ['SE-R-004', 'A Swedish seller’s organisation number (BT-30) must be 10 characters.', (value: string) => value.trim().length === 10],
      [
        'SE-R-013',
        'A Swedish seller’s organisation number (BT-30) must have a valid Luhn check digit.',
        (value: string) => swedishOrgNumberValid(value.trim()),
      ],
    ] as const
  ).map(([id, text, valid]) =>
    rule(id, text, (i) => sweden(i) && !!i.seller?.legalRegistration && !valid(i.seller.legalRegistration.value) && i.seller.legalRegistration.path),
  ),
  rule(
    'SE-R-005',
    'A Swedish seller’s tax registration (BT-32) must read "Godkänd för F-skatt".',
    (i) =>
      sweden(i) &&
      !!i.seller?.legalRegistration &&
      !!i.seller.taxRegistrationId &&
      i.seller.taxRegistrationId.value.trim().toUpperCase() !== 'GODKÄND FÖR F-SKATT' &&
      i.seller.taxRegistrationId.path,
  ),
  xmlRule('SE-R-006', 'A Swedish seller may use only the standard VAT rates 25, 12 and 6.', {
    UBL: (root, i) =>
      swedishVat(i)
        ? [...root.descendants('cac:TaxCategory'), ...root.descendants('cac:ClassifiedTaxCategory')].filter(
            (tax) => tax.all('cbc:ID').some((id) => id.text === 'S') && ![25, 12, 6].includes(xpathNumber(tax.one('cbc:Percent')?.text) ?? Number.NaN),
          )
        : [],
    // Peppol's CII rule checks the rate of every VAT entry, whatever its category.
    CII: (root, i) =>
      swedishVat(i)
        ? [...root.descendants('ram:ApplicableTradeTax'), ...root.descendants('ram:CategoryTradeTax')].filter(
            (tax) => ![25, 12, 6].includes(xpathNumber(tax.one('ram:RateApplicablePercent')?.text) ?? Number.NaN),
          )
        : [],
  }),
  ...icelandRules(),
];

/** Iceland (IS-R), UBL only: legal ids with scheme 0196, addresses, 12 digit accounts, EINDAGI. */
function icelandRules(): Rule[] {
  const iceland = (check: (root: Node, i: Invoice) => Iterable<Node | string | false | undefined>, both = false) => ({
    UBL: (root: Node, i: Invoice) => (exactly(i, 'IS', both) ? check(root, i) : []),
  });
  const legal0196 = (party: Node | undefined) => party?.at('cac:PartyLegalEntity/cbc:CompanyID')?.attr('schemeID') === '0196';
  const streetAndZip = (party: Node | undefined) => !!party?.at('cac:PostalAddress/cbc:StreetName') && !!party.at('cac:PostalAddress/cbc:PostalZone');
  const twelve = (means: string) => (root: Node) => {
    const entries = accountOf(root, means);
    const id = entries.flatMap((pm) => pm.each('cac:PayeeFinancialAccount/cbc:ID'))[0];
    return entries.length > 0 && id?.text.trim().length !== 12 ? [entries[0]!] : [];
  };
  return [
    xmlRule(
      'IS-R-002',
      'An Icelandic seller must give its legal id (kennitala, BT-30) with scheme 0196.',
      iceland((root) => [!legal0196(root.at('cac:AccountingSupplierParty/cac:Party')) && root.path]),
    ),
    xmlRule(
      'IS-R-003',
      "An Icelandic seller's address must give street (BT-35) and post code (BT-38).",
      iceland((root) => [!streetAndZip(root.at('cac:AccountingSupplierParty/cac:Party')) && root.path]),
    ),
    xmlRule(
      'IS-R-004',
      'Between Icelandic parties, the buyer must give its legal id (BT-47) with scheme 0196.',
      iceland((root) => root.all('cac:AccountingCustomerParty').filter((p) => !legal0196(p.one('cac:Party'))), true),
    ),
    xmlRule(
      'IS-R-005',
      "Between Icelandic parties, the buyer's address must give street (BT-50) and post code (BT-53).",
      iceland((root) => root.all('cac:AccountingCustomerParty').filter((p) => !streetAndZip(p.one('cac:Party'))), true),
    ),
    xmlRule('IS-R-006', 'An Icelandic seller using payment means 9 must give a 12 digit account (BT-84).', iceland(twelve('9'))),
    xmlRule('IS-R-007', 'An Icelandic seller using payment means 42 must give a 12 digit account (BT-84).', iceland(twelve('42'))),
    xmlRule(
      'IS-R-008',
      'An Icelandic EINDAGI document reference must be a date written YYYY-MM-DD.',
      iceland((root) => {
        const id = eindagi(root)[0]?.one('cbc:ID');
        return eindagi(root).length > 0 && !(id && id.text.length === 10 && !Number.isNaN(Date.parse(id.text)) && /^\d{4}-\d{2}-\d{2}$/.test(id.text))
          ? [eindagi(root)[0]!]
          : [];
      }),
    ),
    xmlRule(
      'IS-R-009',
      'An Icelandic invoice with an EINDAGI must give its due date (BT-9).',
      iceland((root) => [eindagi(root).length > 0 && !root.one('cbc:DueDate') && eindagi(root)[0]!]),
    ),
    xmlRule(
      'IS-R-010',
      'An Icelandic EINDAGI must not be before the due date (BT-9).',
      iceland((root) => {
        const due = root.one('cbc:DueDate')?.text;
        const last = eindagi(root).flatMap((ref) => ref.all('cbc:ID'));
        return [eindagi(root).length > 0 && !(due !== undefined && last.some((id) => due <= id.text)) && eindagi(root)[0]!];
      }),
    ),
  ];
}
