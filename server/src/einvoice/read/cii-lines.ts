// CII line items and allowances/charges -> the model's lines (BG-25) and BG-20/21/27/28. A line's
// VAT is its ApplicableTradeTax; a document allowance or charge carries its own CategoryTradeTax.

import type { AllowanceCharge, InvoiceLine, Period } from '../model/invoice-model.ts';
import type { Node } from '../xml/located-node.ts';
import { amount, ciiDate, identifier, quantity, text } from './values.ts';

export function ciiAllowanceCharge(node: Node): AllowanceCharge {
  return {
    path: node.path,
    isCharge: node.at('ram:ChargeIndicator/udt:Indicator')?.text.trim() === 'true',
    amount: amount(node.one('ram:ActualAmount')),
    baseAmount: amount(node.one('ram:BasisAmount')),
    percentage: text(node.one('ram:CalculationPercent')),
    vatCategory: text(node.at('ram:CategoryTradeTax/ram:CategoryCode')),
    vatRate: text(node.at('ram:CategoryTradeTax/ram:RateApplicablePercent')),
    reason: text(node.one('ram:Reason')),
    reasonCode: text(node.one('ram:ReasonCode')),
  };
}

export function ciiPeriod(node: Node | undefined): Period | undefined {
  if (!node) return undefined;
  return { path: node.path, start: ciiDate(node.one('ram:StartDateTime')), end: ciiDate(node.one('ram:EndDateTime')) };
}

export function ciiLine(node: Node): InvoiceLine {
  const agreement = node.one('ram:SpecifiedLineTradeAgreement');
  const settlement = node.one('ram:SpecifiedLineTradeSettlement');
  const product = node.one('ram:SpecifiedTradeProduct');
  const netPrices = agreement?.each('ram:NetPriceProductTradePrice/ram:ChargeAmount') ?? [];
  const tax = settlement?.all('ram:ApplicableTradeTax').find((candidate) => candidate.one('ram:TypeCode')?.text.trim().toUpperCase() === 'VAT');
  const objectReference = settlement?.all('ram:AdditionalReferencedDocument').find((doc) => doc.one('ram:TypeCode')?.text.trim() === '130');
  return {
    path: node.path,
    id: text(node.at('ram:AssociatedDocumentLineDocument/ram:LineID')),
    note: text(node.at('ram:AssociatedDocumentLineDocument/ram:IncludedNote/ram:Content')),
    objectIdentifier: identifier(objectReference?.one('ram:IssuerAssignedID'), 'schemeID'),
    quantity: quantity(node.at('ram:SpecifiedLineTradeDelivery/ram:BilledQuantity')),
    netAmount: amount(settlement?.at('ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount')),
    orderLineReference: text(agreement?.at('ram:BuyerOrderReferencedDocument/ram:LineID')),
    accountingReference: text(settlement?.at('ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID')),
    period: ciiPeriod(settlement?.one('ram:BillingSpecifiedPeriod')),
    allowancesCharges: (settlement?.all('ram:SpecifiedTradeAllowanceCharge') ?? []).map(ciiAllowanceCharge),
    netPrice: amount(netPrices[0]),
    netPriceCount: netPrices.length,
    priceDiscount: amount(agreement?.at('ram:GrossPriceProductTradePrice/ram:AppliedTradeAllowanceCharge/ram:ActualAmount')),
    grossPrice: amount(agreement?.at('ram:GrossPriceProductTradePrice/ram:ChargeAmount')),
    baseQuantity: quantity(agreement?.at('ram:NetPriceProductTradePrice/ram:BasisQuantity')),
    grossPriceBaseQuantity: quantity(agreement?.at('ram:GrossPriceProductTradePrice/ram:BasisQuantity')),
    vatCategory: text(tax?.one('ram:CategoryCode')),
    vatRate: text(tax?.one('ram:RateApplicablePercent')),
    item: {
      path: product?.path ?? `${node.path}/ram:SpecifiedTradeProduct`,
      name: text(product?.one('ram:Name')),
      description: text(product?.one('ram:Description')),
      sellerId: text(product?.one('ram:SellerAssignedID')),
      buyerId: text(product?.one('ram:BuyerAssignedID')),
      standardId: identifier(product?.one('ram:GlobalID')),
      classifications: (product?.each('ram:DesignatedProductClassification/ram:ClassCode') ?? []).map((code) => identifier(code, 'listID')!),
      originCountry: text(product?.at('ram:OriginTradeCountry/ram:ID')),
      attributes: (product?.all('ram:ApplicableProductCharacteristic') ?? []).map((attribute) => ({
        path: attribute.path,
        name: text(attribute.one('ram:Description')),
        value: text(attribute.one('ram:Value')),
      })),
    },
  };
}
