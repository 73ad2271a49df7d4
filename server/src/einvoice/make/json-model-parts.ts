// The parts of JSON -> model (json-to-model.ts): parties and addresses, lines with their
// allowances and charges, and the payment means. Paths are the JSON fields the values came from.

import type { AllowanceCharge, Address, DateValue, Identifier, InvoiceLine, Located, PaymentMeans, Seller } from '../model/invoice-model.ts';
import type { ComputedCharge, ComputedLine } from './json-amounts.ts';
import type { MakeInvoice, MakeLine, MakeParty } from './invoice-json.ts';

/** A located text, or undefined when the JSON has no value. */
export const at = (value: string | undefined, path: string): Located | undefined => (value === undefined ? undefined : { value, path });
export const dateAt = (value: string | undefined, path: string): DateValue | undefined => (value === undefined ? undefined : { value, path, iso: value });

type JsonAddress = MakeParty['address'];
type JsonIdentifier = { id: string; scheme?: string };

const identifierAt = (id: JsonIdentifier | undefined, path: string): Identifier | undefined => id && { value: id.id, scheme: id.scheme, path };

export function modelAddress(address: JsonAddress, path: string): Address {
  return {
    path,
    line1: at(address.line1, `${path}.line1`),
    line2: at(address.line2, `${path}.line2`),
    line3: at(address.line3, `${path}.line3`),
    city: at(address.city, `${path}.city`),
    postCode: at(address.postcode, `${path}.postcode`),
    subdivision: at(address.subdivision, `${path}.subdivision`),
    countryCode: at(address.country_code, `${path}.country_code`),
  };
}

export function modelParty(party: MakeParty, path: string, seller: boolean): Seller {
  const electronic = party.electronic_address
    ? identifierAt(party.electronic_address, `${path}.electronic_address`)
    : party.email !== undefined
      ? { value: party.email, scheme: 'EM', path: `${path}.email` }
      : undefined;
  const contact = party.contact;
  return {
    path,
    name: at(party.name, `${path}.name`),
    tradingName: at(party.trading_name, `${path}.trading_name`),
    identifiers: (party.identifiers ?? []).map((id, index) => identifierAt(id, `${path}.identifiers[${index}]`)!),
    legalRegistration: party.legal_id === undefined ? undefined : { value: party.legal_id, scheme: party.legal_id_scheme, path: `${path}.legal_id` },
    vatId: at(party.vat_id, `${path}.vat_id`),
    electronicAddress: electronic,
    address: modelAddress(party.address, `${path}.address`),
    contact: contact && {
      path: `${path}.contact`,
      name: at(contact.name, `${path}.contact.name`),
      phone: at(contact.phone, `${path}.contact.phone`),
      email: at(contact.email, `${path}.contact.email`),
    },
    ...(seller
      ? { taxRegistrationId: at(party.tax_number, `${path}.tax_number`), additionalLegalInfo: at(party.additional_legal_info, `${path}.additional_legal_info`) }
      : {}),
  };
}

export function modelAllowanceCharge(charge: ComputedCharge, path: string, documentLevel: boolean): AllowanceCharge {
  const { source } = charge;
  return {
    path,
    isCharge: source.kind === 'charge',
    amount: at(charge.amount, `${path}.amount`),
    baseAmount: at(charge.baseAmount, `${path}.base_amount`),
    percentage: at(source.percentage, `${path}.percentage`),
    vatCategory: documentLevel ? at(source.vat_category, `${path}.vat_category`) : undefined,
    vatRate: documentLevel ? at(charge.vatRate, `${path}.vat_rate`) : undefined,
    reason: at(source.reason, `${path}.reason`),
    reasonCode: at(source.reason_code, `${path}.reason_code`),
  };
}

export function modelLine(line: MakeLine, computed: ComputedLine, index: number, path: string): InvoiceLine {
  return {
    path,
    id: at(line.id ?? String(index + 1), `${path}.id`),
    note: at(line.note, `${path}.note`),
    quantity: { value: line.quantity, unitCode: line.unit_code, path: `${path}.quantity` },
    netAmount: at(computed.net, `${path}.line_total`),
    orderLineReference: at(line.order_line_reference, `${path}.order_line_reference`),
    accountingReference: at(line.accounting_reference, `${path}.accounting_reference`),
    period: line.period && {
      path: `${path}.period`,
      start: dateAt(line.period.start, `${path}.period.start`),
      end: dateAt(line.period.end, `${path}.period.end`),
    },
    allowancesCharges: computed.charges.map((charge, n) => modelAllowanceCharge(charge, `${path}.allowances_charges[${n}]`, false)),
    netPrice: at(line.unit_price, `${path}.unit_price`),
    netPriceCount: 1,
    baseQuantity: line.base_quantity === undefined ? undefined : { value: line.base_quantity, unitCode: line.unit_code, path: `${path}.base_quantity` },
    vatCategory: at(line.vat_category, `${path}.vat_category`),
    vatRate: at(line.vat_rate, `${path}.vat_rate`),
    item: {
      path,
      name: at(line.name, `${path}.name`),
      description: at(line.description, `${path}.description`),
      sellerId: at(line.seller_item_id, `${path}.seller_item_id`),
      buyerId: at(line.buyer_item_id, `${path}.buyer_item_id`),
      standardId: identifierAt(line.standard_item_id, `${path}.standard_item_id`),
      classifications: (line.classifications ?? []).map((entry, n) => ({ value: entry.code, scheme: entry.scheme, path: `${path}.classifications[${n}]` })),
      originCountry: at(line.origin_country, `${path}.origin_country`),
      attributes: (line.attributes ?? []).map((entry, n) => ({
        path: `${path}.attributes[${n}]`,
        name: at(entry.name, `${path}.attributes[${n}].name`),
        value: at(entry.value, `${path}.attributes[${n}].value`),
      })),
    },
  };
}

const CREDIT_TRANSFER = new Set(['30', '58']);

/** BG-16 from the payment object: the account for a credit transfer, the mandate for a direct debit, the card. */
export function modelPaymentMeans(payment: MakeInvoice['payment'], path: string): PaymentMeans[] {
  const account = payment.iban !== undefined || CREDIT_TRANSFER.has(payment.means_code);
  return [
    {
      path,
      typeCode: at(payment.means_code, `${path}.means_code`),
      text: at(payment.means_text, `${path}.means_text`),
      remittanceInformation: at(payment.reference, `${path}.reference`),
      creditTransfers: account
        ? [
            {
              path,
              accountId: at(payment.iban, `${path}.iban`),
              accountName: at(payment.account_name, `${path}.account_name`),
              serviceProviderId: at(payment.bic, `${path}.bic`),
            },
          ]
        : [],
      card: payment.card && {
        path: `${path}.card`,
        accountNumber: at(payment.card.account_number, `${path}.card.account_number`),
        holderName: at(payment.card.holder_name, `${path}.card.holder_name`),
      },
      directDebit:
        payment.mandate_reference !== undefined || payment.creditor_id !== undefined || payment.debited_iban !== undefined
          ? {
              path,
              mandateReference: at(payment.mandate_reference, `${path}.mandate_reference`),
              creditorId: payment.creditor_id === undefined ? undefined : { value: payment.creditor_id, path: `${path}.creditor_id` },
              debitedAccount: at(payment.debited_iban, `${path}.debited_iban`),
            }
          : undefined,
    },
  ];
}
