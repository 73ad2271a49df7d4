// CII trade parties, addresses and contacts -> the model's seller, buyer, payee, tax
// representative and deliver-to. A party's tax registrations split by scheme: VA is the VAT
// identifier (BT-31/48/63), FC the seller's local tax number (BT-32).

import type { Address, Buyer, Contact, Payee, Seller, TaxRepresentative } from '../model/invoice-model.ts';
import type { Node } from '../xml/located-node.ts';
import { identifier, text } from './values.ts';

export function ciiAddress(node: Node | undefined): Address | undefined {
  if (!node) return undefined;
  return {
    path: node.path,
    line1: text(node.one('ram:LineOne')),
    line2: text(node.one('ram:LineTwo')),
    line3: text(node.one('ram:LineThree')),
    city: text(node.one('ram:CityName')),
    postCode: text(node.one('ram:PostcodeCode')),
    subdivision: text(node.one('ram:CountrySubDivisionName')),
    countryCode: text(node.one('ram:CountryID')),
  };
}

function contact(node: Node | undefined): Contact | undefined {
  if (!node) return undefined;
  return {
    path: node.path,
    name: text(node.one('ram:PersonName') ?? node.one('ram:DepartmentName')),
    phone: text(node.at('ram:TelephoneUniversalCommunication/ram:CompleteNumber')),
    email: text(node.at('ram:EmailURIUniversalCommunication/ram:URIID')),
  };
}

function taxRegistration(node: Node, scheme: string) {
  return text(
    node
      .all('ram:SpecifiedTaxRegistration')
      .find((registration) => registration.one('ram:ID')?.attr('schemeID') === scheme)
      ?.one('ram:ID'),
  );
}

function party(node: Node): Buyer {
  return {
    path: node.path,
    name: text(node.one('ram:Name')),
    tradingName: text(node.at('ram:SpecifiedLegalOrganization/ram:TradingBusinessName')),
    identifiers: [...node.all('ram:ID'), ...node.all('ram:GlobalID')].map((id) => identifier(id)!),
    legalRegistration: identifier(node.at('ram:SpecifiedLegalOrganization/ram:ID')),
    vatId: taxRegistration(node, 'VA'),
    electronicAddress: identifier(node.at('ram:URIUniversalCommunication/ram:URIID')),
    address: ciiAddress(node.one('ram:PostalTradeAddress')),
    contact: contact(node.one('ram:DefinedTradeContact')),
  };
}

export function ciiSeller(node: Node | undefined): Seller | undefined {
  if (!node) return undefined;
  return { ...party(node), taxRegistrationId: taxRegistration(node, 'FC'), additionalLegalInfo: text(node.one('ram:Description')) };
}

export function ciiBuyer(node: Node | undefined): Buyer | undefined {
  return node ? party(node) : undefined;
}

export function ciiPayee(node: Node | undefined): Payee | undefined {
  if (!node) return undefined;
  return {
    path: node.path,
    name: text(node.one('ram:Name')),
    identifiers: [...node.all('ram:ID'), ...node.all('ram:GlobalID')].map((id) => identifier(id)!),
    legalRegistration: identifier(node.at('ram:SpecifiedLegalOrganization/ram:ID')),
  };
}

export function ciiTaxRepresentative(node: Node | undefined): TaxRepresentative | undefined {
  if (!node) return undefined;
  return { path: node.path, name: text(node.one('ram:Name')), vatId: taxRegistration(node, 'VA'), address: ciiAddress(node.one('ram:PostalTradeAddress')) };
}
