// EN 16931 business rules on lines, items, allowances and charges and the VAT breakdown's parts
// (BR-21..BR-28, BR-30..BR-48, BR-54, BR-64, BR-65, BR-CO-04, BR-CO-20..BR-CO-24), in our words.

import type { AllowanceCharge, Invoice } from '../model/invoice-model.ts';
import { allowances, charges, code, filled, lineAllowanceCharges, num } from './facts.ts';
import { eachRule, type Rule } from './rule.ts';

const lines = (invoice: Invoice) => invoice.lines;
const lineAllowances = (invoice: Invoice) => lineAllowanceCharges(invoice).filter((entry) => !entry.isCharge);
const lineCharges = (invoice: Invoice) => lineAllowanceCharges(invoice).filter((entry) => entry.isCharge);
const noReason = (entry: AllowanceCharge) => !entry.reason && !entry.reasonCode;

export const LINE_RULES: readonly Rule[] = [
  eachRule('BR-21', 'Each line must have an identifier (BT-126).', lines, (line) => !filled(line.id)),
  eachRule('BR-22', 'Each line must have an invoiced quantity (BT-129).', lines, (line) => !line.quantity),
  eachRule(
    'BR-23',
    "Each line's quantity must have a unit of measure (BT-130).",
    lines,
    (line) => !!line.quantity && !line.quantity.unitCode && line.quantity.path,
  ),
  eachRule('BR-24', 'Each line must have a net amount (BT-131).', lines, (line) => !line.netAmount),
  eachRule('BR-25', 'Each line must name the item (BT-153).', lines, (line) => !filled(line.item.name)),
  eachRule('BR-26', 'Each line must have an item net price (BT-146).', lines, (line) => !line.netPrice),
  eachRule('BR-27', 'The item net price (BT-146) must not be negative.', lines, (line) => {
    const price = num(line.netPrice);
    return (price === undefined || price < 0n) && (line.netPrice?.path ?? true);
  }),
  eachRule('BR-28', 'The item gross price (BT-148) must not be negative.', lines, (line) => {
    const price = num(line.grossPrice);
    return !!line.grossPrice && (price === undefined || price < 0n) && line.grossPrice.path;
  }),
  eachRule('BR-30', "A line's invoicing period must not end before it starts (BT-134, BT-135).", lines, (line) => {
    const period = line.period;
    return !!period?.start?.iso && !!period.end?.iso && period.end.iso < period.start.iso && period.end.path;
  }),
  eachRule(
    'BR-CO-20',
    "A line's invoicing period must give a start date, an end date, or both (BG-26).",
    lines,
    (line) => !!line.period && !line.period.start && !line.period.end && line.period.path,
  ),
  eachRule('BR-CO-04', 'Each line must have a VAT category code (BT-151).', lines, (line) => !filled(line.vatCategory)),
  eachRule(
    'BR-54',
    'Each item attribute must have a name and a value (BT-160, BT-161).',
    (i) => i.lines.flatMap((line) => line.item.attributes),
    (attribute) => !attribute.name || !attribute.value,
  ),
  eachRule(
    'BR-64',
    'An item standard identifier (BT-157) must have a scheme.',
    (i) => i.lines.flatMap((line) => (line.item.standardId ? [line.item.standardId] : [])),
    (id) => !id.scheme,
  ),
  eachRule(
    'BR-65',
    'An item classification (BT-158) must have a scheme.',
    (i) => i.lines.flatMap((line) => line.item.classifications),
    (id) => !id.scheme,
  ),
  eachRule('BR-31', 'A document allowance must have an amount (BT-92).', allowances, (entry) => !entry.amount),
  eachRule('BR-32', 'A document allowance must have a VAT category code (BT-95).', allowances, (entry) => !filled(entry.vatCategory)),
  eachRule('BR-33', 'A document allowance must have a reason (BT-97) or a reason code (BT-98).', allowances, noReason),
  eachRule('BR-CO-21', 'A document allowance must give a reason (BT-97), a reason code (BT-98), or both.', allowances, noReason),
  eachRule('BR-36', 'A document charge must have an amount (BT-99).', charges, (entry) => !entry.amount),
  eachRule('BR-37', 'A document charge must have a VAT category code (BT-102).', charges, (entry) => !filled(entry.vatCategory)),
  eachRule('BR-38', 'A document charge must have a reason (BT-104) or a reason code (BT-105).', charges, noReason),
  eachRule('BR-CO-22', 'A document charge must give a reason (BT-104), a reason code (BT-105), or both.', charges, noReason),
  eachRule('BR-41', 'A line allowance must have an amount (BT-136).', lineAllowances, (entry) => !entry.amount),
  eachRule('BR-42', 'A line allowance must have a reason (BT-139) or a reason code (BT-140).', lineAllowances, noReason),
  eachRule('BR-CO-23', 'A line allowance must give a reason (BT-139), a reason code (BT-140), or both.', lineAllowances, noReason),
  eachRule('BR-43', 'A line charge must have an amount (BT-141).', lineCharges, (entry) => !entry.amount),
  eachRule('BR-44', 'A line charge must have a reason (BT-144) or a reason code (BT-145).', lineCharges, noReason),
  eachRule('BR-CO-24', 'A line charge must give a reason (BT-144), a reason code (BT-145), or both.', lineCharges, noReason),
  eachRule(
    'BR-45',
    'Each VAT breakdown must have a taxable amount (BT-116).',
    (i) => i.vatBreakdown,
    (entry) => !entry.taxableAmount,
  ),
  eachRule(
    'BR-46',
    'Each VAT breakdown must have a VAT amount (BT-117).',
    (i) => i.vatBreakdown,
    (entry) => !entry.taxAmount,
  ),
  eachRule(
    'BR-47',
    'Each VAT breakdown must have a VAT category code (BT-118).',
    (i) => i.vatBreakdown,
    (entry) => !filled(entry.categoryCode),
  ),
  eachRule(
    'BR-48',
    'Each VAT breakdown must have a VAT rate (BT-119), except for category O.',
    (i) => i.vatBreakdown,
    (entry) => !entry.rate && code(entry.categoryCode) !== 'O',
  ),
];
