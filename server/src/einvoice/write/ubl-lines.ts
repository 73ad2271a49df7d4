// Model -> UBL 2.1 invoice or credit note lines (BG-25), allowances and charges (BG-20/21/27/28)
// and periods, in the order of the UBL InvoiceLine/CreditNoteLine, Item and Price sequences.
// Amounts keep the currency they were read with, else the document's.

import type { AllowanceCharge, Amount, InvoiceLine, Period } from '../model/invoice-model.ts';
import { ublDate } from './ubl-date.ts';
import { ublId } from './ubl-parties.ts';
import { group, leaf, type XmlElement } from './xml-tree.ts';

export const ublAmount = (name: string, amount: Amount | undefined, currency: string | undefined) =>
  leaf(name, amount?.value, { currencyID: amount?.currency ?? currency });

const vatScheme = () => group('cac:TaxScheme', leaf('cbc:ID', 'VAT'));

export function ublAllowanceCharge(charge: AllowanceCharge, currency: string | undefined): XmlElement | undefined {
  const category =
    charge.vatCategory || charge.vatRate
      ? group('cac:TaxCategory', leaf('cbc:ID', charge.vatCategory?.value), leaf('cbc:Percent', charge.vatRate?.value), vatScheme())
      : undefined;
  return group(
    'cac:AllowanceCharge',
    leaf('cbc:ChargeIndicator', String(charge.isCharge)),
    leaf('cbc:AllowanceChargeReasonCode', charge.reasonCode?.value),
    leaf('cbc:AllowanceChargeReason', charge.reason?.value),
    leaf('cbc:MultiplierFactorNumeric', charge.percentage?.value),
    ublAmount('cbc:Amount', charge.amount, currency),
    ublAmount('cbc:BaseAmount', charge.baseAmount, currency),
    category,
  );
}

/** A Period; `descriptionCode` is BT-8 on the document's InvoicePeriod. */
export function ublPeriod(period: Period | undefined, descriptionCode?: string): XmlElement | undefined {
  return group(
    'cac:InvoicePeriod',
    leaf('cbc:StartDate', ublDate(period?.start)),
    leaf('cbc:EndDate', ublDate(period?.end)),
    leaf('cbc:DescriptionCode', descriptionCode),
  );
}

function price(line: InvoiceLine, currency: string | undefined): XmlElement | undefined {
  const base = line.baseQuantity;
  return group(
    'cac:Price',
    ublAmount('cbc:PriceAmount', line.netPrice, currency),
    leaf('cbc:BaseQuantity', base?.value, { unitCode: base?.unitCode }),
    (line.priceDiscount || line.grossPrice) &&
      group(
        'cac:AllowanceCharge',
        leaf('cbc:ChargeIndicator', 'false'),
        ublAmount('cbc:Amount', line.priceDiscount, currency),
        ublAmount('cbc:BaseAmount', line.grossPrice, currency),
      ),
  );
}

export function ublLine(line: InvoiceLine, creditNote: boolean, currency: string | undefined): XmlElement | undefined {
  const item = line.item;
  return group(
    creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine',
    leaf('cbc:ID', line.id?.value),
    leaf('cbc:Note', line.note?.value),
    leaf(creditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', line.quantity?.value, { unitCode: line.quantity?.unitCode }),
    ublAmount('cbc:LineExtensionAmount', line.netAmount, currency),
    leaf('cbc:AccountingCost', line.accountingReference?.value),
    line.period && ublPeriod(line.period),
    group('cac:OrderLineReference', leaf('cbc:LineID', line.orderLineReference?.value)),
    line.objectIdentifier && group('cac:DocumentReference', ublId('cbc:ID', line.objectIdentifier), leaf('cbc:DocumentTypeCode', '130')),
    line.allowancesCharges.map((charge) => ublAllowanceCharge(charge, currency)),
    group(
      'cac:Item',
      leaf('cbc:Description', item.description?.value),
      leaf('cbc:Name', item.name?.value),
      group('cac:BuyersItemIdentification', leaf('cbc:ID', item.buyerId?.value)),
      group('cac:SellersItemIdentification', leaf('cbc:ID', item.sellerId?.value)),
      group('cac:StandardItemIdentification', ublId('cbc:ID', item.standardId)),
      group('cac:OriginCountry', leaf('cbc:IdentificationCode', item.originCountry?.value)),
      item.classifications.map((code) => group('cac:CommodityClassification', ublId('cbc:ItemClassificationCode', code, 'listID'))),
      (line.vatCategory || line.vatRate) &&
        group('cac:ClassifiedTaxCategory', leaf('cbc:ID', line.vatCategory?.value), leaf('cbc:Percent', line.vatRate?.value), vatScheme()),
      item.attributes.map((attribute) =>
        group('cac:AdditionalItemProperty', leaf('cbc:Name', attribute.name?.value), leaf('cbc:Value', attribute.value?.value)),
      ),
    ),
    price(line, currency),
  );
}
