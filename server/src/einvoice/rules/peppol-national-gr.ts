// Peppol's Greek national rules (GR-R-*), fatal ones, UBL only as Peppol states them: a Greek
// seller's invoice number has six |-separated segments (TIN, date, ...), its MARK reference,
// valid Greek TINs (prefix EL) as VAT ids and as electronic addresses (scheme 9933).

import type { Invoice } from '../model/invoice-model.ts';
import type { Node } from '../xml/located-node.ts';
import { xmlRule } from './peppol-codes.ts';
import { customerCountry, sellerCountry, supplierCountry, xpathNumber } from './peppol-parties.ts';
import type { Rule } from './rule.ts';

const GREEK = ['GR', 'EL'];
const DOCUMENT_TYPES = ['1.1', '1.6', '2.1', '2.4', '5.1', '5.2'];
const DATE = /^(0?[1-9]|[12][0-9]|3[01])[-\\/ ]?(0?[1-9]|1[0-2])[-\\/ ]?(19|20)[0-9]{2}/;
const MARK = '##M.AR.K##';
const URL = '##INVOICE|URL##';

/** The Greek TIN check: 9 digits, the first eight weighted 256..2, (sum mod 11) mod 10 = the ninth. */
export function greekTinValid(value: string): boolean {
  if (!/^[0-9]{9}/.test(value)) return false;
  const digits = [...value].map(Number);
  const total = digits.slice(0, 8).reduce((sum, digit, n) => sum + digit * 2 ** (8 - n), 0);
  return (total % 11) % 10 === digits[8];
}

const greekSender = (i: Invoice) => GREEK.includes(supplierCountry(i) ?? '');
const accountingSupplierGreek = (i: Invoice) => GREEK.includes((i.seller?.vatId?.value.slice(0, 2).trim().toUpperCase() || sellerCountry(i)) ?? '');
const vatIds = (party: Node | undefined) =>
  party
    ?.all('cac:PartyTaxScheme')
    .filter((scheme) => scheme.at('cac:TaxScheme/cbc:ID')?.text.trim() === 'VAT')
    .flatMap((scheme) => scheme.all('cbc:CompanyID')) ?? [];
const supplier = (root: Node) => root.at('cac:AccountingSupplierParty/cac:Party');
const customer = (root: Node) => root.at('cac:AccountingCustomerParty/cac:Party');
const references = (root: Node, description: string) =>
  root.all('cac:AdditionalDocumentReference').filter((ref) => ref.all('cbc:DocumentDescription').some((node) => node.text === description));
const greek = (check: (root: Node, i: Invoice) => Iterable<Node | string | false | undefined>, when = greekSender) => ({
  UBL: (root: Node, i: Invoice) => (when(i) ? check(root, i) : []),
});
const bothGreek = (i: Invoice) => greekSender(i) && GREEK.includes(customerCountry(i) ?? '');
const alsoPostedInGreece = (i: Invoice) => greekSender(i) && i.seller?.address?.countryCode?.value === 'GR';

/** Which of GR-R-001-1..7 the invoice number breaks. */
function invoiceNumberFaults(root: Node): string[] {
  const id = root.one('cbc:ID')?.text ?? '';
  const segments = id.split('|');
  const faults: string[] = [];
  if (segments.length !== 6) faults.push('GR-R-001-1');
  const [tin = '', date = '', serial = '', type = '', fifth = '', sixth = ''] = segments;
  const ownTins = [supplier(root), root.one('cac:TaxRepresentativeParty')].flatMap((party) => vatIds(party).map((node) => node.text.slice(2, 11)));
  if (!(tin.trim().length === 9 && greekTinValid(tin) && ownTins.includes(tin))) faults.push('GR-R-001-2');
  const [year, month, day] = (root.one('cbc:IssueDate')?.text ?? '').split('-');
  const parts = date.split('/');
  if (!(date.trim() && DATE.test(date) && parts[0] === day && parts[1] === month && parts[2] === year)) faults.push('GR-R-001-3');
  if (!(serial.trim() && xpathNumber(serial) !== undefined && /^\s*[+-]?[0-9]+\s*$/.test(serial) && Number(serial) >= 0)) faults.push('GR-R-001-4');
  if (!(type.trim() && DOCUMENT_TYPES.includes(type))) faults.push('GR-R-001-5');
  if (fifth.length === 0) faults.push('GR-R-001-6');
  if (sixth.length === 0) faults.push('GR-R-001-7');
  return faults;
}

const numberRule = (n: number, text: string): Rule =>
  xmlRule(
    `GR-R-001-${n}`,
    text,
    greek((root) => (invoiceNumberFaults(root).includes(`GR-R-001-${n}`) ? [root.one('cbc:ID')!] : [])),
  );
const tinAddress = (endpoint: Node | undefined) => !!endpoint && !(endpoint.attr('schemeID') === '9933' && greekTinValid(endpoint.text));
const greekVat = (party: Node | undefined) => {
  const ids = vatIds(party);
  return ids.length === 1 && ids[0]!.text.startsWith('EL') && greekTinValid(ids[0]!.text.slice(2));
};

export const PEPPOL_GREEK_RULES: readonly Rule[] = [
  numberRule(1, 'A Greek seller’s invoice number (BT-1) must have six segments separated by |.'),
  numberRule(2, 'The first segment of a Greek invoice number must be the seller’s (or tax representative’s) valid TIN.'),
  numberRule(3, 'The second segment of a Greek invoice number must be the issue date (BT-2), day/month/year.'),
  numberRule(4, 'The third segment of a Greek invoice number must be a non-negative integer.'),
  numberRule(5, 'The fourth segment of a Greek invoice number must be a Greek document type (1.1, 1.6, 2.1, 2.4, 5.1, 5.2).'),
  numberRule(6, 'The fifth segment of a Greek invoice number must not be empty.'),
  numberRule(7, 'The sixth segment of a Greek invoice number must not be empty.'),
  xmlRule(
    'GR-R-002',
    'A Greek seller must give its name as registered (cac:PartyName).',
    greek((root) => [!supplier(root)?.at('cac:PartyName/cbc:Name')?.text && (supplier(root) ?? root)]),
  ),
  xmlRule(
    'GR-R-003',
    'A Greek seller’s VAT identifier (BT-31) must be EL and a valid TIN.',
    greek((root) => vatIds(supplier(root)).filter((id) => !(id.text.startsWith('EL') && greekTinValid(id.text.slice(2))))),
  ),
  xmlRule(
    'GR-R-004-1',
    'A Greek seller’s invoice must carry exactly one MARK number reference.',
    greek((root) => [references(root, MARK).length !== 1 && root.path], alsoPostedInGreece),
  ),
  xmlRule(
    'GR-R-004-2',
    'A MARK number must be a positive integer.',
    greek(
      (root) =>
        references(root, MARK)
          .flatMap((ref) => ref.all('cbc:ID'))
          .filter((id) => !/^[1-9]([0-9]*)/.test(id.text)),
      alsoPostedInGreece,
    ),
  ),
  xmlRule(
    'GR-R-005',
    'A Greek seller must give the buyer’s full name (cac:PartyName).',
    greek((root) => [!!customer(root) && !customer(root)!.at('cac:PartyName/cbc:Name')?.text && customer(root)!]),
  ),
  xmlRule(
    'GR-R-006',
    'Between Greek parties, the buyer’s VAT identifier (BT-48) must be given once, EL and a valid TIN.',
    greek((root) => [!!customer(root) && !greekVat(customer(root)) && customer(root)!], bothGreek),
  ),
  xmlRule(
    'GR-R-008-2',
    'A Greek seller’s invoice may carry at most one invoice URL reference.',
    greek((root) => [references(root, URL).length > 1 && root.path], alsoPostedInGreece),
  ),
  xmlRule(
    'GR-R-008-3',
    'A Greek invoice URL reference must give the URL (BT-124).',
    greek((root) => references(root, URL).filter((ref) => !ref.at('cac:Attachment/cac:ExternalReference/cbc:URI')?.text.trim())),
  ),
  xmlRule(
    'GR-R-009',
    'A Greek seller’s electronic address (BT-34) must be its TIN with scheme 9933.',
    greek((root) => [tinAddress(supplier(root)?.one('cbc:EndpointID')) && supplier(root)!.one('cbc:EndpointID')!], accountingSupplierGreek),
  ),
  xmlRule(
    'GR-R-010',
    'Between Greek parties, the buyer’s electronic address (BT-49) must be its TIN with scheme 9933.',
    greek((root) => [tinAddress(customer(root)?.one('cbc:EndpointID')) && customer(root)!.one('cbc:EndpointID')!], bothGreek),
  ),
];
