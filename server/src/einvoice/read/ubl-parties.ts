// UBL 2.1 parties -> the model's seller, buyer, payee and tax representative. PartyTaxScheme
// with TaxScheme VAT is the VAT identifier (BT-31/48/63); with another scheme it is the seller's
// tax registration (BT-32). The legal name is PartyLegalEntity/RegistrationName.

import type { Address, Buyer, Payee, Seller, TaxRepresentative } from '../model/invoice-model.ts';
import type { Node } from '../xml/located-node.ts';
import { identifier, text } from './values.ts';

export function ublAddress(node: Node | undefined): Address | undefined {
  if (!node) return undefined;
  return {
    path: node.path,
    line1: text(node.one('cbc:StreetName')),
    line2: text(node.one('cbc:AdditionalStreetName')),
    line3: text(node.at('cac:AddressLine/cbc:Line')),
    city: text(node.one('cbc:CityName')),
    postCode: text(node.one('cbc:PostalZone')),
    subdivision: text(node.one('cbc:CountrySubentity')),
    countryCode: text(node.at('cac:Country/cbc:IdentificationCode')),
  };
}

const isVat = (scheme: Node) => scheme.at('cac:TaxScheme/cbc:ID')?.text.trim().toUpperCase() === 'VAT';

function party(node: Node): Buyer {
  const contact = node.one('cac:Contact');
  return {
    path: node.path,
    name: text(node.at('cac:PartyLegalEntity/cbc:RegistrationName')),
    tradingName: text(node.at('cac:PartyName/cbc:Name')),
    identifiers: node.each('cac:PartyIdentification/cbc:ID').map((id) => identifier(id)!),
    legalRegistration: identifier(node.at('cac:PartyLegalEntity/cbc:CompanyID')),
    vatId: text(node.all('cac:PartyTaxScheme').find(isVat)?.one('cbc:CompanyID')),
    electronicAddress: identifier(node.one('cbc:EndpointID')),
    address: ublAddress(node.one('cac:PostalAddress')),
    contact: contact && {
      path: contact.path,
      name: text(contact.one('cbc:Name')),
      phone: text(contact.one('cbc:Telephone')),
      email: text(contact.one('cbc:ElectronicMail')),
    },
  };
}

export function ublSeller(node: Node | undefined): Seller | undefined {
  if (!node) return undefined;
  return {
    ...party(node),
    taxRegistrationId: text(
      node
        .all('cac:PartyTaxScheme')
        .find((scheme) => !isVat(scheme))
        ?.one('cbc:CompanyID'),
    ),
    additionalLegalInfo: text(node.at('cac:PartyLegalEntity/cbc:CompanyLegalForm')),
  };
}

export function ublBuyer(node: Node | undefined): Buyer | undefined {
  return node ? party(node) : undefined;
}

export function ublPayee(node: Node | undefined): Payee | undefined {
  if (!node) return undefined;
  return {
    path: node.path,
    name: text(node.at('cac:PartyName/cbc:Name')),
    identifiers: node.each('cac:PartyIdentification/cbc:ID').map((id) => identifier(id)!),
    legalRegistration: identifier(node.at('cac:PartyLegalEntity/cbc:CompanyID')),
  };
}

export function ublTaxRepresentative(node: Node | undefined): TaxRepresentative | undefined {
  if (!node) return undefined;
  return {
    path: node.path,
    name: text(node.at('cac:PartyName/cbc:Name')),
    vatId: text(node.all('cac:PartyTaxScheme').find(isVat)?.one('cbc:CompanyID')),
    address: ublAddress(node.one('cac:PostalAddress')),
  };
}
