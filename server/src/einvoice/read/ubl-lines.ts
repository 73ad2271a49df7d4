// UBL InvoiceLine / CreditNoteLine and AllowanceCharge -> the model's lines (BG-25) and
// BG-20/21/27/28. Only the VAT tax category of an item or allowance is the EN 16931 one.

import type { AllowanceCharge, InvoiceLine, Period } from '../model/invoice-model.ts';
import type { Node } from '../xml/located-node.ts';
import { amount, identifier, quantity, text, ublDate } from './values.ts';

export function ublAllowanceCharge(node: Node): AllowanceCharge {
  const category = node.all('cac:TaxCategory').find((tax) => tax.at('cac:TaxScheme/cbc:ID')?.text.trim().toUpperCase() === 'VAT');
  return {
    path: node.path,
    isCharge: node.one('cbc:ChargeIndicator')?.text.trim() === 'true',
    amount: amount(node.one('cbc:Amount')),
    baseAmount: amount(node.one('cbc:BaseAmount')),
    percentage: text(node.one('cbc:MultiplierFactorNumeric')),
    vatCategory: text(category?.one('cbc:ID')),
    vatRate: text(category?.one('cbc:Percent')),
    reason: text(node.one('cbc:AllowanceChargeReason')),
    reasonCode: text(node.one('cbc:AllowanceChargeReasonCode')),
  };
}

export function ublPeriod(node: Node | undefined): Period | undefined {
  if (!node) return undefined;
  return {
    path: node.path,
    start: ublDate(node.one('cbc:StartDate')),
    end: ublDate(node.one('cbc:EndDate')),
    descriptionCode: text(node.one('cbc:DescriptionCode')),
  };
}

export function ublLine(node: Node): InvoiceLine {
  const item = node.one('cac:Item');
  const price = node.one('cac:Price');
  const priceAllowance = price?.one('cac:AllowanceCharge');
  const category = item?.all('cac:ClassifiedTaxCategory').find((tax) => tax.at('cac:TaxScheme/cbc:ID')?.text.trim().toUpperCase() === 'VAT');
  const netPrices = price?.all('cbc:PriceAmount') ?? [];
  return {
    path: node.path,
    id: text(node.one('cbc:ID')),
    note: text(node.one('cbc:Note')),
    objectIdentifier: identifier(node.at('cac:DocumentReference/cbc:ID')),
    quantity: quantity(node.one('cbc:InvoicedQuantity') ?? node.one('cbc:CreditedQuantity')),
    netAmount: amount(node.one('cbc:LineExtensionAmount')),
    orderLineReference: text(node.at('cac:OrderLineReference/cbc:LineID')),
    accountingReference: text(node.one('cbc:AccountingCost')),
    period: ublPeriod(node.one('cac:InvoicePeriod')),
    allowancesCharges: node.all('cac:AllowanceCharge').map(ublAllowanceCharge),
    netPrice: amount(netPrices[0]),
    netPriceCount: netPrices.length,
    priceDiscount: amount(priceAllowance?.one('cbc:Amount')),
    grossPrice: amount(priceAllowance?.one('cbc:BaseAmount')),
    baseQuantity: quantity(price?.one('cbc:BaseQuantity')),
    vatCategory: text(category?.one('cbc:ID')),
    vatRate: text(category?.one('cbc:Percent')),
    item: {
      path: item?.path ?? `${node.path}/cac:Item`,
      name: text(item?.one('cbc:Name')),
      description: text(item?.one('cbc:Description')),
      sellerId: text(item?.at('cac:SellersItemIdentification/cbc:ID')),
      buyerId: text(item?.at('cac:BuyersItemIdentification/cbc:ID')),
      standardId: identifier(item?.at('cac:StandardItemIdentification/cbc:ID')),
      classifications: (item?.each('cac:CommodityClassification/cbc:ItemClassificationCode') ?? []).map((code) => identifier(code, 'listID')!),
      originCountry: text(item?.at('cac:OriginCountry/cbc:IdentificationCode')),
      attributes: (item?.all('cac:AdditionalItemProperty') ?? []).map((attribute) => ({
        path: attribute.path,
        name: text(attribute.one('cbc:Name')),
        value: text(attribute.one('cbc:Value')),
      })),
    },
  };
}
