// Model -> UBL 2.1 parties (seller, buyer, payee, tax representative) and addresses, each in the
// order of the UBL Party, Address and PartyLegalEntity sequences. The VAT identifier is a
// PartyTaxScheme of scheme VAT; the seller's local tax number (BT-32) one of another scheme.

import type { Address, Buyer, Identifier, Payee, Seller, TaxRepresentative } from '../model/invoice-model.ts';
import { type Child, group, leaf, type XmlElement } from './xml-tree.ts';

/** An identifier with its scheme attribute (schemeID unless told). */
export const ublId = (name: string, id: Identifier | undefined, attribute = 'schemeID') => leaf(name, id?.value, { [attribute]: id?.scheme });

export function ublAddress(name: string, address: Address | undefined): XmlElement | undefined {
  if (!address) return undefined;
  return group(
    name,
    leaf('cbc:StreetName', address.line1?.value),
    leaf('cbc:AdditionalStreetName', address.line2?.value),
    leaf('cbc:CityName', address.city?.value),
    leaf('cbc:PostalZone', address.postCode?.value),
    leaf('cbc:CountrySubentity', address.subdivision?.value),
    group('cac:AddressLine', leaf('cbc:Line', address.line3?.value)),
    group('cac:Country', leaf('cbc:IdentificationCode', address.countryCode?.value)),
  );
}

const taxScheme = (companyId: string | undefined, scheme: string) =>
  companyId === undefined ? undefined : group('cac:PartyTaxScheme', leaf('cbc:CompanyID', companyId), group('cac:TaxScheme', leaf('cbc:ID', scheme)));

const identifications = (ids: Identifier[]) => ids.map((id) => group('cac:PartyIdentification', ublId('cbc:ID', id)));

function party(party: Buyer & Partial<Pick<Seller, 'taxRegistrationId' | 'additionalLegalInfo'>>, extraIds: Identifier[]): XmlElement | undefined {
  const contact = party.contact;
  return group(
    'cac:Party',
    ublId('cbc:EndpointID', party.electronicAddress),
    identifications([...party.identifiers, ...extraIds]),
    group('cac:PartyName', leaf('cbc:Name', party.tradingName?.value)),
    ublAddress('cac:PostalAddress', party.address),
    taxScheme(party.vatId?.value, 'VAT'),
    // UBL names no scheme for BT-32; any scheme but VAT marks it, and Peppol's examples write TAX.
    taxScheme(party.taxRegistrationId?.value, 'TAX'),
    group(
      'cac:PartyLegalEntity',
      leaf('cbc:RegistrationName', party.name?.value),
      ublId('cbc:CompanyID', party.legalRegistration),
      leaf('cbc:CompanyLegalForm', party.additionalLegalInfo?.value),
    ),
    contact &&
      group(
        'cac:Contact',
        leaf('cbc:Name', contact.name?.value),
        leaf('cbc:Telephone', contact.phone?.value),
        leaf('cbc:ElectronicMail', contact.email?.value),
      ),
  );
}

/** BG-4 as AccountingSupplierParty; `creditorIds` are SEPA creditor ids (BT-90) UBL carries here. */
export function ublSeller(seller: Seller | undefined, creditorIds: Identifier[]): Child {
  return seller && group('cac:AccountingSupplierParty', party(seller, creditorIds));
}

export function ublBuyer(buyer: Buyer | undefined): Child {
  return buyer && group('cac:AccountingCustomerParty', party(buyer, []));
}

export function ublPayee(payee: Payee | undefined, creditorIds: Identifier[]): Child {
  if (!payee) return undefined;
  return group(
    'cac:PayeeParty',
    identifications([...payee.identifiers, ...creditorIds]),
    group('cac:PartyName', leaf('cbc:Name', payee.name?.value)),
    group('cac:PartyLegalEntity', ublId('cbc:CompanyID', payee.legalRegistration)),
  );
}

export function ublTaxRepresentative(representative: TaxRepresentative | undefined): Child {
  if (!representative) return undefined;
  return group(
    'cac:TaxRepresentativeParty',
    group('cac:PartyName', leaf('cbc:Name', representative.name?.value)),
    ublAddress('cac:PostalAddress', representative.address),
    taxScheme(representative.vatId?.value, 'VAT'),
  );
}
