// Model -> CII line items (BG-25) and allowances/charges (BG-20/21/27/28), in the order of the CII
// SupplyChainTradeLineItem, TradeProduct, LineTradeAgreement and LineTradeSettlement sequences.

import type { AllowanceCharge, InvoiceLine, Period } from '../model/invoice-model.ts';
import { ciiAmount, ciiDate } from './cii-values.ts';
import { group, leaf, type XmlElement } from './xml-tree.ts';

const indicator = (isCharge: boolean) => group('ram:ChargeIndicator', leaf('udt:Indicator', String(isCharge)));

export function ciiAllowanceCharge(charge: AllowanceCharge): XmlElement | undefined {
  return group(
    'ram:SpecifiedTradeAllowanceCharge',
    indicator(charge.isCharge),
    leaf('ram:CalculationPercent', charge.percentage?.value),
    ciiAmount('ram:BasisAmount', charge.baseAmount),
    ciiAmount('ram:ActualAmount', charge.amount),
    leaf('ram:ReasonCode', charge.reasonCode?.value),
    leaf('ram:Reason', charge.reason?.value),
    (charge.vatCategory || charge.vatRate) &&
      group(
        'ram:CategoryTradeTax',
        leaf('ram:TypeCode', 'VAT'),
        leaf('ram:CategoryCode', charge.vatCategory?.value),
        leaf('ram:RateApplicablePercent', charge.vatRate?.value),
      ),
  );
}

export function ciiPeriod(period: Period | undefined): XmlElement | undefined {
  return period && group('ram:BillingSpecifiedPeriod', ciiDate('ram:StartDateTime', period.start), ciiDate('ram:EndDateTime', period.end));
}

function agreement(line: InvoiceLine): XmlElement | undefined {
  const gross = line.grossPriceBaseQuantity;
  return group(
    'ram:SpecifiedLineTradeAgreement',
    group('ram:BuyerOrderReferencedDocument', leaf('ram:LineID', line.orderLineReference?.value)),
    group(
      'ram:GrossPriceProductTradePrice',
      ciiAmount('ram:ChargeAmount', line.grossPrice),
      leaf('ram:BasisQuantity', gross?.value, { unitCode: gross?.unitCode }),
      line.priceDiscount && group('ram:AppliedTradeAllowanceCharge', indicator(false), ciiAmount('ram:ActualAmount', line.priceDiscount)),
    ),
    group(
      'ram:NetPriceProductTradePrice',
      ciiAmount('ram:ChargeAmount', line.netPrice),
      leaf('ram:BasisQuantity', line.baseQuantity?.value, { unitCode: line.baseQuantity?.unitCode }),
    ),
  );
}

export function ciiLine(line: InvoiceLine): XmlElement | undefined {
  const { item, objectIdentifier } = line;
  return group(
    'ram:IncludedSupplyChainTradeLineItem',
    group('ram:AssociatedDocumentLineDocument', leaf('ram:LineID', line.id?.value), group('ram:IncludedNote', leaf('ram:Content', line.note?.value))),
    group(
      'ram:SpecifiedTradeProduct',
      leaf('ram:GlobalID', item.standardId?.value, { schemeID: item.standardId?.scheme }),
      leaf('ram:SellerAssignedID', item.sellerId?.value),
      leaf('ram:BuyerAssignedID', item.buyerId?.value),
      leaf('ram:Name', item.name?.value),
      leaf('ram:Description', item.description?.value),
      item.attributes.map((attribute) =>
        group('ram:ApplicableProductCharacteristic', leaf('ram:Description', attribute.name?.value), leaf('ram:Value', attribute.value?.value)),
      ),
      item.classifications.map((code) => group('ram:DesignatedProductClassification', leaf('ram:ClassCode', code.value, { listID: code.scheme }))),
      group('ram:OriginTradeCountry', leaf('ram:ID', item.originCountry?.value)),
    ),
    agreement(line),
    group('ram:SpecifiedLineTradeDelivery', leaf('ram:BilledQuantity', line.quantity?.value, { unitCode: line.quantity?.unitCode })),
    group(
      'ram:SpecifiedLineTradeSettlement',
      (line.vatCategory || line.vatRate) &&
        group(
          'ram:ApplicableTradeTax',
          leaf('ram:TypeCode', 'VAT'),
          leaf('ram:CategoryCode', line.vatCategory?.value),
          leaf('ram:RateApplicablePercent', line.vatRate?.value),
        ),
      ciiPeriod(line.period),
      line.allowancesCharges.map(ciiAllowanceCharge),
      group('ram:SpecifiedTradeSettlementLineMonetarySummation', ciiAmount('ram:LineTotalAmount', line.netAmount)),
      objectIdentifier &&
        group(
          'ram:AdditionalReferencedDocument',
          leaf('ram:IssuerAssignedID', objectIdentifier.value),
          leaf('ram:TypeCode', '130'),
          leaf('ram:ReferenceTypeCode', objectIdentifier.scheme),
        ),
      group('ram:ReceivableSpecifiedTradeAccountingAccount', leaf('ram:ID', line.accountingReference?.value)),
    ),
  );
}
