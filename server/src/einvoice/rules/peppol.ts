// Peppol BIS Billing 3.0 rules (OpenPEPPOL 3.0.19) beyond the ones XRechnung shares
// (peppol-shared.ts): the Peppol identifiers and profile, notes, references, currencies and date
// forms. National rules are in peppol-national.ts. Not every Peppol rule is written yet: see
// docs/decisions.md.

import type { Invoice } from '../model/invoice-model.ts';
import { PEPPOL_EAS_SCHEMES as PEPPOL_EAS } from '../codes/code-lists.ts';
import { code, missing } from './facts.ts';
import { type Rule, rule } from './rule.ts';

const PEPPOL_SPECIFICATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const PEPPOL_PROFILE = /urn:fdc:peppol.eu:2017:poacc:billing:([0-9]{2}):1.0/;

const postalCountry = (address: { countryCode?: { value: string } } | undefined) => address?.countryCode?.value.trim().toUpperCase();
export const bothIn = (invoice: Invoice, country: string) =>
  postalCountry(invoice.seller?.address) === country && postalCountry(invoice.buyer?.address) === country;

export const PEPPOL_RULES: readonly Rule[] = [
  rule('PEPPOL-EN16931-R002', 'An invoice may have at most one note (BG-1), and in CII none with a subject code.', (i) => {
    if (i.syntax === 'CII') return (i.notes.length > 1 || i.notes.some((note) => note.subjectCode)) && i.notes[0]!.path;
    return i.notes.length > 1 && !bothIn(i, 'DE') && i.notes[1]!.path;
  }),
  rule(
    'PEPPOL-EN16931-R003',
    'A buyer reference (BT-10) or a purchase order reference (BT-13) must be given.',
    (i) => !i.buyerReference && !i.purchaseOrderReference && missing(i.path, 'BT-10/BT-13'),
  ),
  rule(
    'PEPPOL-EN16931-R004',
    'The specification identifier (BT-24) must be the Peppol BIS Billing 3.0 one.',
    (i) => !code(i.specification)?.startsWith(PEPPOL_SPECIFICATION) && (i.specification?.path ?? missing(i.path, 'BT-24')),
  ),
  rule(
    'PEPPOL-EN16931-R007',
    'The business process (BT-23) must be a Peppol billing profile (urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0).',
    (i) => !PEPPOL_PROFILE.test(code(i.businessProcess) ?? '') && (i.businessProcess?.path ?? missing(i.path, 'BT-23')),
  ),
  {
    id: 'PEPPOL-EN16931-R051',
    flag: 'fatal',
    text: 'Every amount must be in the invoice currency (BT-5), except the VAT total in the accounting currency.',
    *check({ invoice, root }) {
      if (invoice.syntax !== 'UBL' || !root) return;
      const currency = code(invoice.currency);
      const withBreakdown = root.all('cac:TaxTotal').filter((total) => total.one('cac:TaxSubtotal'));
      const names = [
        'cbc:Amount',
        'cbc:BaseAmount',
        'cbc:PriceAmount',
        'cbc:TaxableAmount',
        'cbc:LineExtensionAmount',
        'cbc:TaxExclusiveAmount',
        'cbc:TaxInclusiveAmount',
      ];
      const more = ['cbc:AllowanceTotalAmount', 'cbc:ChargeTotalAmount', 'cbc:PrepaidAmount', 'cbc:PayableRoundingAmount', 'cbc:PayableAmount'];
      const amounts = [
        ...[...names, ...more].flatMap((name) => root.descendants(name)),
        ...withBreakdown.flatMap((total) => [...total.all('cbc:TaxAmount'), ...total.each('cac:TaxSubtotal/cbc:TaxAmount')]),
      ];
      for (const amount of amounts) if (amount.attr('currencyID') !== currency) yield amount.path;
    },
  },
  {
    id: 'PEPPOL-EN16931-R053',
    flag: 'fatal',
    text: 'Exactly one VAT total with breakdown must be in the invoice currency.',
    *check({ invoice, root }) {
      const count =
        invoice.syntax === 'UBL' && root
          ? root.all('cac:TaxTotal').filter((total) => total.one('cac:TaxSubtotal')).length
          : (invoice.totals?.vatTotals.filter((total) => total.currency === code(invoice.currency)).length ?? 0);
      if (count !== 1) yield invoice.totals?.path ?? invoice.path;
    },
  },
  {
    id: 'PEPPOL-EN16931-CL008',
    flag: 'fatal',
    text: 'An electronic address scheme (BT-34, BT-49) must be one Peppol accepts.',
    *check({ invoice }) {
      for (const address of [invoice.seller?.electronicAddress, invoice.buyer?.electronicAddress])
        if (address && (address.scheme === undefined ? invoice.syntax === 'UBL' : !PEPPOL_EAS.has(address.scheme))) yield address.path;
    },
  },
  {
    id: 'PEPPOL-EN16931-F001',
    flag: 'fatal',
    text: 'A date must be written YYYY-MM-DD (UBL) or as format 102, YYYYMMDD in this century (CII).',
    *check({ invoice, root }) {
      if (!root) return;
      if (invoice.syntax === 'CII') {
        for (const node of root.descendants('udt:DateTimeString'))
          if (node.attr('format')?.trim() !== '102' || !/^20[0-9]{6}$/.test(node.text.trim())) yield node.path;
        return;
      }
      const dates = ['cbc:IssueDate', 'cbc:DueDate', 'cbc:TaxPointDate', 'cbc:StartDate', 'cbc:EndDate', 'cbc:ActualDeliveryDate'].flatMap((name) =>
        root.descendants(name),
      );
      for (const node of dates) if (!/^\d{4}-\d{2}-\d{2}$/.test(node.text) || Number.isNaN(Date.parse(node.text))) yield node.path;
    },
  },
];
