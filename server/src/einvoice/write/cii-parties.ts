// Model -> CII trade parties (seller, buyer, payee, seller's tax representative, ship-to) and
// addresses, in the order of the CII TradeParty and TradeAddress sequences. Tax registrations
// are written with scheme VA (VAT identifier) and FC (the seller's local tax number, BT-32).

import type { Address, Buyer, Delivery, Payee, Seller, TaxRepresentative } from '../model/invoice-model.ts';
import { ciiIds } from './cii-values.ts';
import { type Child, group, leaf, type XmlElement } from './xml-tree.ts';

export function ciiAddress(address: Address | undefined): XmlElement | undefined {
  if (!address) return undefined;
  return group(
    'ram:PostalTradeAddress',
    leaf('ram:PostcodeCode', address.postCode?.value),
    leaf('ram:LineOne', address.line1?.value),
    leaf('ram:LineTwo', address.line2?.value),
    leaf('ram:LineThree', address.line3?.value),
    leaf('ram:CityName', address.city?.value),
    leaf('ram:CountryID', address.countryCode?.value),
    leaf('ram:CountrySubDivisionName', address.subdivision?.value),
  );
}

const registration = (value: string | undefined, scheme: string) => group('ram:SpecifiedTaxRegistration', leaf('ram:ID', value, { schemeID: scheme }));

function party(name: string, party: Buyer & Partial<Pick<Seller, 'taxRegistrationId' | 'additionalLegalInfo'>>): XmlElement | undefined {
  const contact = party.contact;
  return group(
    name,
    ciiIds(party.identifiers),
    leaf('ram:Name', party.name?.value),
    leaf('ram:Description', party.additionalLegalInfo?.value),
    group(
      'ram:SpecifiedLegalOrganization',
      leaf('ram:ID', party.legalRegistration?.value, { schemeID: party.legalRegistration?.scheme }),
      leaf('ram:TradingBusinessName', party.tradingName?.value),
    ),
    contact &&
      group(
        'ram:DefinedTradeContact',
        leaf('ram:PersonName', contact.name?.value),
        group('ram:TelephoneUniversalCommunication', leaf('ram:CompleteNumber', contact.phone?.value)),
        group('ram:EmailURIUniversalCommunication', leaf('ram:URIID', contact.email?.value)),
      ),
    ciiAddress(party.address),
    group('ram:URIUniversalCommunication', leaf('ram:URIID', party.electronicAddress?.value, { schemeID: party.electronicAddress?.scheme })),
    registration(party.vatId?.value, 'VA'),
    registration(party.taxRegistrationId?.value, 'FC'),
  );
}

export const ciiSeller = (seller: Seller | undefined): Child => seller && party('ram:SellerTradeParty', seller);
export const ciiBuyer = (buyer: Buyer | undefined): Child => buyer && party('ram:BuyerTradeParty', buyer);

export function ciiPayee(payee: Payee | undefined): Child {
  if (!payee) return undefined;
  return group(
    'ram:PayeeTradeParty',
    ciiIds(payee.identifiers),
    leaf('ram:Name', payee.name?.value),
    group('ram:SpecifiedLegalOrganization', leaf('ram:ID', payee.legalRegistration?.value, { schemeID: payee.legalRegistration?.scheme })),
  );
}

export function ciiTaxRepresentative(representative: TaxRepresentative | undefined): Child {
  if (!representative) return undefined;
  return group(
    'ram:SellerTaxRepresentativeTradeParty',
    leaf('ram:Name', representative.name?.value),
    ciiAddress(representative.address),
    registration(representative.vatId?.value, 'VA'),
  );
}

export function ciiShipTo(delivery: Delivery | undefined): Child {
  if (!delivery) return undefined;
  return group('ram:ShipToTradeParty', ciiIds([delivery.locationId]), leaf('ram:Name', delivery.partyName?.value), ciiAddress(delivery.address));
}
