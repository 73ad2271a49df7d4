// The VAT category rules (BR-S-*, BR-Z-*, BR-E-*, BR-AE-*, BR-IC-*, BR-G-*, BR-O-*, BR-AF-*,
// BR-AG-*), made once from the table in vat-category-table.ts: each category gets the same ten
// questions (-01 breakdown present, -02..-04 party identifiers, -05..-07 rates, -08 taxable
// amount, -09 VAT amount, -10 exemption reason), plus the extras of K and O (vat-category-extra.ts).

import { abs, type Dec, div, fromInt, mul, round, sum } from '../model/decimal.ts';
import type { AllowanceCharge, Invoice, Text, VatBreakdown } from '../model/invoice-model.ts';
import { allowances, breakdownOf, categoryUsed, charges, code, filled, missing, num, numOr0 } from './facts.ts';
import { eachRule, type Rule, rule } from './rule.ts';
import { basisComparison, type PartyRule, type RateRule, VAT_CATEGORIES, type VatCategory } from './vat-category-table.ts';

const HUNDRED = fromInt(100);
const ONE = fromInt(1);

function partiesOk(invoice: Invoice, parties: PartyRule): boolean {
  const sellerVat = !!invoice.seller?.vatId || !!invoice.taxRepresentative?.vatId;
  const sellerAny = sellerVat || !!invoice.seller?.taxRegistrationId;
  switch (parties) {
    case 'seller-vat-or-tax-id':
      return sellerAny;
    case 'seller-vat':
      return sellerVat;
    case 'seller-vat-and-buyer-id':
      return sellerAny && (!!invoice.buyer?.vatId || !!invoice.buyer?.legalRegistration);
    case 'seller-and-buyer-vat':
      return sellerVat && !!invoice.buyer?.vatId;
    case 'no-vat-ids':
      return !invoice.seller?.vatId && !invoice.taxRepresentative?.vatId && !invoice.buyer?.vatId;
  }
}

function rateOk(rate: Text | undefined, rule: RateRule): boolean {
  if (rule === 'none') return rate === undefined;
  const value = num(rate);
  if (value === undefined) return false;
  return rule === 'positive' ? value > 0n : rule === 'zero' ? value === 0n : value >= 0n;
}

const sameRate = (a: Text | undefined, b: Text | undefined) => num(a) === num(b);

/** The taxable amount the lines, charges and allowances of a category (and rate) add up to. */
function expectedBasis(invoice: Invoice, category: VatCategory, entry: VatBreakdown, roundSums: boolean): Dec {
  const matches = (item: { vatCategory?: Text; vatRate?: Text }) =>
    code(item.vatCategory) === category.code && (!category.perRate || sameRate(item.vatRate, entry.rate));
  const part = (values: (Dec | undefined)[]) => (roundSums ? round(sum(values)) : sum(values));
  const amounts = (list: AllowanceCharge[]) => list.filter(matches).map((item) => num(item.amount));
  return part(invoice.lines.filter(matches).map((line) => num(line.netAmount))) + part(amounts(charges(invoice))) - part(amounts(allowances(invoice)));
}

function categoryRules(category: VatCategory): Rule[] {
  const { code: cat, prefix, name } = category;
  const inBreakdown = (invoice: Invoice) => breakdownOf(invoice, cat);
  const withCategory = <T extends { vatCategory?: Text }>(list: T[]) => list.filter((item) => code(item.vatCategory) === cat);
  const partyText =
    category.parties === 'no-vat-ids'
      ? 'the seller, its tax representative and the buyer must have no VAT identifier'
      : 'the seller must have the VAT identifiers the category requires';
  const rateText = { positive: 'above 0', zero: '0', none: 'absent', 'zero-or-more': '0 or more' }[category.rate];
  return [
    rule(
      `${prefix}-01`,
      `An invoice with ${name} (${cat}) lines, allowances or charges must have ${category.perRate ? 'a' : 'exactly one'} ${cat} VAT breakdown, and only then.`,
      (i) => {
        const used = categoryUsed(i, cat);
        const count = inBreakdown(i).length;
        const ok = category.perRate ? used === count > 0 : used ? count === 1 : count === 0 || i.syntax === 'UBL';
        return !ok && (inBreakdown(i)[0]?.path ?? missing(i.path, `BG-23 with category ${cat}`));
      },
    ),
    eachRule(
      `${prefix}-02`,
      `With a ${cat} line, ${partyText}.`,
      (i) => withCategory(i.lines).slice(0, 1),
      (_, i) => !partiesOk(i, category.parties),
    ),
    eachRule(
      `${prefix}-03`,
      `With a ${cat} document allowance, ${partyText}.`,
      (i) => withCategory(allowances(i)).slice(0, 1),
      (_, i) => !partiesOk(i, category.parties),
    ),
    eachRule(
      `${prefix}-04`,
      `With a ${cat} document charge, ${partyText}.`,
      (i) => withCategory(charges(i)).slice(0, 1),
      (_, i) => !partiesOk(i, category.parties),
    ),
    eachRule(
      `${prefix}-05`,
      `A ${cat} line's VAT rate (BT-152) must be ${rateText}.`,
      (i) => withCategory(i.lines),
      (line) => !rateOk(line.vatRate, category.rate) && (line.vatRate?.path ?? true),
    ),
    eachRule(
      `${prefix}-06`,
      `A ${cat} document allowance's VAT rate (BT-96) must be ${rateText}.`,
      (i) => withCategory(allowances(i)),
      (entry) => !rateOk(entry.vatRate, category.rate) && (entry.vatRate?.path ?? true),
    ),
    eachRule(
      `${prefix}-07`,
      `A ${cat} document charge's VAT rate (BT-103) must be ${rateText}.`,
      (i) => withCategory(charges(i)),
      (entry) => !rateOk(entry.vatRate, category.rate) && (entry.vatRate?.path ?? true),
    ),
    eachRule(
      `${prefix}-08`,
      `The ${cat} taxable amount (BT-116) must be its lines' net amounts plus its charges less its allowances${category.perRate ? ', per rate' : ''}.`,
      inBreakdown,
      (entry, i) => {
        const { roundSums, tolerance } = basisComparison(i.syntax, category);
        const difference = abs(numOr0(entry.taxableAmount) - expectedBasis(i, category, entry, roundSums));
        const ok = tolerance === 0 ? difference === 0n : difference < ONE;
        return !ok && (entry.taxableAmount?.path ?? true);
      },
    ),
    eachRule(
      `${prefix}-09`,
      category.taxed
        ? `The ${cat} VAT amount (BT-117) must be the taxable amount times the rate, rounded, within 1.`
        : `The ${cat} VAT amount (BT-117) must be 0.`,
      inBreakdown,
      (entry) => {
        const tax = num(entry.taxAmount);
        if (!category.taxed) return tax !== 0n && (entry.taxAmount?.path ?? true);
        const expected = round(mul(abs(numOr0(entry.taxableAmount)), div(numOr0(entry.rate), HUNDRED)));
        const stated = abs(tax ?? 0n);
        return !(stated - ONE < expected && stated + ONE > expected) && (entry.taxAmount?.path ?? true);
      },
    ),
    eachRule(
      `${prefix}-10`,
      category.exemptionReason === 'required'
        ? `A ${cat} VAT breakdown must give an exemption reason (BT-120) or code (BT-121).`
        : `A ${cat} VAT breakdown must not give an exemption reason (BT-120) or code (BT-121).`,
      inBreakdown,
      (entry) => {
        const given = filled(entry.exemptionReason) || filled(entry.exemptionReasonCode) || !!entry.exemptionReason || !!entry.exemptionReasonCode;
        return category.exemptionReason === 'required' ? !given : given && (entry.exemptionReason?.path ?? entry.exemptionReasonCode?.path ?? true);
      },
    ),
  ];
}

export const VAT_CATEGORY_RULES: readonly Rule[] = VAT_CATEGORIES.flatMap(categoryRules);
