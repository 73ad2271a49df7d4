// UBL 2.1 Invoice and CreditNote (the syntax of Peppol BIS and XRechnung UBL) -> the EN 16931
// model: header, references, payment, VAT breakdown (TaxSubtotals of the VAT scheme) and totals;
// parties and lines in ubl-parties.ts and ubl-lines.ts. Every value keeps its source path.

import type { Invoice, PaymentMeans, SupportingDocument, VatBreakdown } from '../model/invoice-model.ts';
import type { Node } from '../xml/located-node.ts';
import { ublAllowanceCharge, ublLine, ublPeriod } from './ubl-lines.ts';
import { ublAddress, ublBuyer, ublPayee, ublSeller, ublTaxRepresentative } from './ubl-parties.ts';
import { amount, identifier, rawText, text, ublDate } from './values.ts';

export function readUbl(root: Node): Invoice {
  const creditNote = root.element.localName === 'CreditNote';
  const additional = root.all('cac:AdditionalDocumentReference');
  const objectReference = additional.find((doc) => doc.one('cbc:DocumentTypeCode')?.text.trim() === '130');
  const delivery = root.one('cac:Delivery');
  const totals = root.one('cac:LegalMonetaryTotal');
  const subtotals = root
    .each('cac:TaxTotal/cac:TaxSubtotal')
    .filter((subtotal) => subtotal.at('cac:TaxCategory/cac:TaxScheme/cbc:ID')?.text.trim().toUpperCase() === 'VAT');
  return {
    syntax: 'UBL',
    root: creditNote ? 'CreditNote' : 'Invoice',
    path: root.path,
    number: text(root.one('cbc:ID')),
    issueDate: ublDate(root.one('cbc:IssueDate')),
    typeCode: text(root.one(creditNote ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode')),
    currency: text(root.one('cbc:DocumentCurrencyCode')),
    vatAccountingCurrency: text(root.one('cbc:TaxCurrencyCode')),
    vatPointDate: ublDate(root.one('cbc:TaxPointDate')),
    vatPointDateCode: text(root.at('cac:InvoicePeriod/cbc:DescriptionCode')),
    dueDate: ublDate(root.one('cbc:DueDate') ?? root.at('cac:PaymentMeans/cbc:PaymentDueDate')),
    buyerReference: text(root.one('cbc:BuyerReference')),
    projectReference: text(root.at('cac:ProjectReference/cbc:ID')),
    contractReference: text(root.at('cac:ContractDocumentReference/cbc:ID')),
    purchaseOrderReference: text(root.at('cac:OrderReference/cbc:ID')),
    salesOrderReference: text(root.at('cac:OrderReference/cbc:SalesOrderID')),
    receivingAdviceReference: text(root.at('cac:ReceiptDocumentReference/cbc:ID')),
    despatchAdviceReference: text(root.at('cac:DespatchDocumentReference/cbc:ID')),
    tenderOrLotReference: text(root.at('cac:OriginatorDocumentReference/cbc:ID')),
    invoicedObject: identifier(objectReference?.one('cbc:ID')),
    buyerAccountingReference: text(root.one('cbc:AccountingCost')),
    paymentTerms: rawText(root.at('cac:PaymentTerms/cbc:Note')),
    notes: root.all('cbc:Note').map((note) => ({ path: note.path, text: text(note) })),
    businessProcess: text(root.one('cbc:ProfileID')),
    specification: text(root.one('cbc:CustomizationID')),
    precedingInvoices: root.each('cac:BillingReference/cac:InvoiceDocumentReference').map((doc) => ({
      path: doc.path,
      reference: text(doc.one('cbc:ID')),
      issueDate: ublDate(doc.one('cbc:IssueDate')),
    })),
    seller: ublSeller(root.at('cac:AccountingSupplierParty/cac:Party')),
    buyer: ublBuyer(root.at('cac:AccountingCustomerParty/cac:Party')),
    payee: ublPayee(root.one('cac:PayeeParty')),
    taxRepresentative: ublTaxRepresentative(root.one('cac:TaxRepresentativeParty')),
    delivery: delivery && {
      path: delivery.path,
      partyName: text(delivery.at('cac:DeliveryParty/cac:PartyName/cbc:Name')),
      locationId: identifier(delivery.at('cac:DeliveryLocation/cbc:ID')),
      actualDate: ublDate(delivery.one('cbc:ActualDeliveryDate')),
      address: ublAddress(delivery.at('cac:DeliveryLocation/cac:Address')),
    },
    invoicePeriod: ublPeriod(root.one('cac:InvoicePeriod')),
    paymentMeans: root.all('cac:PaymentMeans').map((means) => paymentMeans(means, root)),
    allowancesCharges: root.all('cac:AllowanceCharge').map(ublAllowanceCharge),
    totals: totals && {
      path: totals.path,
      lineNetTotal: amount(totals.one('cbc:LineExtensionAmount')),
      allowanceTotal: amount(totals.one('cbc:AllowanceTotalAmount')),
      chargeTotal: amount(totals.one('cbc:ChargeTotalAmount')),
      taxExclusive: amount(totals.one('cbc:TaxExclusiveAmount')),
      vatTotals: root.each('cac:TaxTotal/cbc:TaxAmount').map((total) => amount(total)!),
      taxInclusive: amount(totals.one('cbc:TaxInclusiveAmount')),
      prepaid: amount(totals.one('cbc:PrepaidAmount')),
      rounding: amount(totals.one('cbc:PayableRoundingAmount')),
      payable: amount(totals.one('cbc:PayableAmount')),
    },
    vatBreakdown: subtotals.map(breakdown),
    supportingDocuments: additional.filter((doc) => doc !== objectReference).map(supportingDocument),
    lines: root.all(creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine').map(ublLine),
  };
}

function breakdown(subtotal: Node): VatBreakdown {
  const category = subtotal.one('cac:TaxCategory');
  return {
    path: subtotal.path,
    taxableAmount: amount(subtotal.one('cbc:TaxableAmount')),
    taxAmount: amount(subtotal.one('cbc:TaxAmount')),
    categoryCode: text(category?.one('cbc:ID')),
    rate: text(category?.one('cbc:Percent')),
    exemptionReason: text(category?.one('cbc:TaxExemptionReason')),
    exemptionReasonCode: text(category?.one('cbc:TaxExemptionReasonCode')),
  };
}

function paymentMeans(means: Node, root: Node): PaymentMeans {
  const card = means.one('cac:CardAccount');
  const mandate = means.one('cac:PaymentMandate');
  const code = means.one('cbc:PaymentMeansCode');
  const name = code?.attr('name');
  return {
    path: means.path,
    typeCode: text(code),
    text: name === undefined || !code ? undefined : { value: name, path: `${code.path}/@name` },
    remittanceInformation: text(means.one('cbc:PaymentID')),
    creditTransfers: means.all('cac:PayeeFinancialAccount').map((account) => ({
      path: account.path,
      accountId: text(account.one('cbc:ID')),
      accountName: text(account.one('cbc:Name')),
      serviceProviderId: text(account.at('cac:FinancialInstitutionBranch/cbc:ID')),
    })),
    card: card && { path: card.path, accountNumber: text(card.one('cbc:PrimaryAccountNumberID')), holderName: text(card.one('cbc:HolderName')) },
    directDebit: mandate && {
      path: mandate.path,
      mandateReference: text(mandate.one('cbc:ID')),
      // UBL writes the SEPA creditor identifier (BT-90) as a seller or payee identifier with scheme SEPA.
      creditorId: identifier(
        [
          ...root.each('cac:AccountingSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID'),
          ...root.each('cac:PayeeParty/cac:PartyIdentification/cbc:ID'),
        ].find((id) => id.attr('schemeID') === 'SEPA'),
      ),
      debitedAccount: text(mandate.at('cac:PayerFinancialAccount/cbc:ID')),
    },
  };
}

function supportingDocument(doc: Node): SupportingDocument {
  const binary = doc.at('cac:Attachment/cbc:EmbeddedDocumentBinaryObject');
  const mimeCode = binary?.attr('mimeCode');
  const filename = binary?.attr('filename');
  return {
    path: doc.path,
    reference: text(doc.one('cbc:ID')),
    description: text(doc.one('cbc:DocumentDescription')),
    externalUri: text(doc.at('cac:Attachment/cac:ExternalReference/cbc:URI')),
    attachment: binary && { value: binary.text.trim(), path: binary.path, ...(mimeCode ? { mimeCode } : {}), ...(filename ? { filename } : {}) },
  };
}
