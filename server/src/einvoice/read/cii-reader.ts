// CII (UN/CEFACT CrossIndustryInvoice D16B, the syntax of Factur-X, ZUGFeRD and XRechnung CII)
// -> the EN 16931 model. Header references, settlement (payment, VAT breakdown, totals) and the
// parties and lines (cii-parties.ts, cii-lines.ts); every value keeps its source path.

import type { Invoice, PaymentMeans, SupportingDocument, VatBreakdown } from '../model/invoice-model.ts';
import type { Node } from '../xml/located-node.ts';
import { ciiAllowanceCharge, ciiLine, ciiPeriod } from './cii-lines.ts';
import { ciiAddress, ciiBuyer, ciiPayee, ciiSeller, ciiTaxRepresentative } from './cii-parties.ts';
import { amount, ciiDate, identifier, rawText, text } from './values.ts';

export function readCii(root: Node): Invoice {
  const context = root.one('rsm:ExchangedDocumentContext');
  const document = root.one('rsm:ExchangedDocument');
  const transaction = root.one('rsm:SupplyChainTradeTransaction');
  const agreement = transaction?.one('ram:ApplicableHeaderTradeAgreement');
  const delivery = transaction?.one('ram:ApplicableHeaderTradeDelivery');
  const settlement = transaction?.one('ram:ApplicableHeaderTradeSettlement');
  const terms = settlement?.one('ram:SpecifiedTradePaymentTerms');
  const totals = settlement?.one('ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  const additional = agreement?.all('ram:AdditionalReferencedDocument') ?? [];
  const withType = (code: string) => additional.find((doc) => doc.one('ram:TypeCode')?.text.trim() === code);
  const taxes = (settlement?.all('ram:ApplicableTradeTax') ?? []).filter((tax) => tax.one('ram:TypeCode')?.text.trim().toUpperCase() === 'VAT');
  const shipTo = delivery?.one('ram:ShipToTradeParty');
  return {
    syntax: 'CII',
    root: 'CrossIndustryInvoice',
    path: root.path,
    number: text(document?.one('ram:ID')),
    issueDate: ciiDate(document?.one('ram:IssueDateTime')),
    typeCode: text(document?.one('ram:TypeCode')),
    currency: text(settlement?.one('ram:InvoiceCurrencyCode')),
    vatAccountingCurrency: text(settlement?.one('ram:TaxCurrencyCode')),
    vatPointDate: ciiDate(taxes.find((tax) => tax.one('ram:TaxPointDate'))?.one('ram:TaxPointDate')),
    vatPointDateCode: text(taxes.find((tax) => tax.one('ram:DueDateTypeCode'))?.one('ram:DueDateTypeCode')),
    dueDate: ciiDate(terms?.one('ram:DueDateDateTime')),
    buyerReference: text(agreement?.one('ram:BuyerReference')),
    projectReference: text(agreement?.at('ram:SpecifiedProcuringProject/ram:ID')),
    contractReference: text(agreement?.at('ram:ContractReferencedDocument/ram:IssuerAssignedID')),
    purchaseOrderReference: text(agreement?.at('ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID')),
    salesOrderReference: text(agreement?.at('ram:SellerOrderReferencedDocument/ram:IssuerAssignedID')),
    receivingAdviceReference: text(delivery?.at('ram:ReceivingAdviceReferencedDocument/ram:IssuerAssignedID')),
    despatchAdviceReference: text(delivery?.at('ram:DespatchAdviceReferencedDocument/ram:IssuerAssignedID')),
    tenderOrLotReference: text(withType('50')?.one('ram:IssuerAssignedID')),
    invoicedObject: identifier(withType('130')?.one('ram:IssuerAssignedID'), 'ReferenceTypeCode'),
    buyerAccountingReference: text(settlement?.at('ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID')),
    paymentTerms: rawText(terms?.one('ram:Description')),
    notes: (document?.all('ram:IncludedNote') ?? []).map((note) => ({
      path: note.path,
      subjectCode: text(note.one('ram:SubjectCode')),
      text: text(note.one('ram:Content')),
    })),
    businessProcess: text(context?.at('ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID')),
    specification: text(context?.at('ram:GuidelineSpecifiedDocumentContextParameter/ram:ID')),
    precedingInvoices: (settlement?.all('ram:InvoiceReferencedDocument') ?? []).map((doc) => ({
      path: doc.path,
      reference: text(doc.one('ram:IssuerAssignedID')),
      issueDate: ciiDate(doc.one('ram:FormattedIssueDateTime')),
    })),
    seller: ciiSeller(agreement?.one('ram:SellerTradeParty')),
    buyer: ciiBuyer(agreement?.one('ram:BuyerTradeParty')),
    payee: ciiPayee(settlement?.one('ram:PayeeTradeParty')),
    taxRepresentative: ciiTaxRepresentative(agreement?.one('ram:SellerTaxRepresentativeTradeParty')),
    delivery: delivery && {
      path: delivery.path,
      partyName: text(shipTo?.one('ram:Name')),
      locationId: identifier(shipTo?.one('ram:ID') ?? shipTo?.one('ram:GlobalID')),
      actualDate: ciiDate(delivery.at('ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime')),
      address: ciiAddress(shipTo?.one('ram:PostalTradeAddress')),
    },
    invoicePeriod: ciiPeriod(settlement?.one('ram:BillingSpecifiedPeriod')),
    paymentMeans: (settlement?.all('ram:SpecifiedTradeSettlementPaymentMeans') ?? []).map((means) => paymentMeans(means, settlement!, terms)),
    allowancesCharges: (settlement?.all('ram:SpecifiedTradeAllowanceCharge') ?? []).map(ciiAllowanceCharge),
    totals: totals && {
      path: totals.path,
      lineNetTotal: amount(totals.one('ram:LineTotalAmount')),
      allowanceTotal: amount(totals.one('ram:AllowanceTotalAmount')),
      chargeTotal: amount(totals.one('ram:ChargeTotalAmount')),
      taxExclusive: amount(totals.one('ram:TaxBasisTotalAmount')),
      vatTotals: totals.all('ram:TaxTotalAmount').map((total) => amount(total)!),
      taxInclusive: amount(totals.one('ram:GrandTotalAmount')),
      prepaid: amount(totals.one('ram:TotalPrepaidAmount')),
      rounding: amount(totals.one('ram:RoundingAmount')),
      payable: amount(totals.one('ram:DuePayableAmount')),
    },
    vatBreakdown: taxes.map(breakdown),
    supportingDocuments: additional.filter((doc) => doc.one('ram:TypeCode')?.text.trim() === '916').map(supportingDocument),
    lines: (transaction?.all('ram:IncludedSupplyChainTradeLineItem') ?? []).map(ciiLine),
  };
}

function breakdown(tax: Node): VatBreakdown {
  return {
    path: tax.path,
    taxableAmount: amount(tax.one('ram:BasisAmount')),
    taxAmount: amount(tax.one('ram:CalculatedAmount')),
    categoryCode: text(tax.one('ram:CategoryCode')),
    rate: text(tax.one('ram:RateApplicablePercent')),
    exemptionReason: text(tax.one('ram:ExemptionReason')),
    exemptionReasonCode: text(tax.one('ram:ExemptionReasonCode')),
  };
}

function paymentMeans(means: Node, settlement: Node, terms: Node | undefined): PaymentMeans {
  const card = means.one('ram:ApplicableTradeSettlementFinancialCard');
  const debited = means.at('ram:PayerPartyDebtorFinancialAccount/ram:IBANID');
  const mandate = terms?.one('ram:DirectDebitMandateID');
  const creditor = settlement.one('ram:CreditorReferenceID');
  return {
    path: means.path,
    typeCode: text(means.one('ram:TypeCode')),
    text: text(means.one('ram:Information')),
    remittanceInformation: text(settlement.one('ram:PaymentReference')),
    creditTransfers: means.all('ram:PayeePartyCreditorFinancialAccount').map((account) => ({
      path: account.path,
      accountId: text(account.one('ram:IBANID') ?? account.one('ram:ProprietaryID')),
      accountName: text(account.one('ram:AccountName')),
      serviceProviderId: text(means.at('ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID')),
    })),
    card: card && { path: card.path, accountNumber: text(card.one('ram:ID')), holderName: text(card.one('ram:CardholderName')) },
    directDebit:
      debited || mandate || creditor
        ? {
            path: means.path,
            mandateReference: text(mandate),
            creditorId: identifier(creditor),
            debitedAccount: text(debited),
          }
        : undefined,
  };
}

function supportingDocument(doc: Node): SupportingDocument {
  const binary = doc.one('ram:AttachmentBinaryObject');
  const mimeCode = binary?.attr('mimeCode');
  const filename = binary?.attr('filename');
  return {
    path: doc.path,
    reference: text(doc.one('ram:IssuerAssignedID')),
    description: text(doc.one('ram:Name')),
    externalUri: text(doc.one('ram:URIID')),
    attachment: binary && { value: binary.text.trim(), path: binary.path, ...(mimeCode ? { mimeCode } : {}), ...(filename ? { filename } : {}) },
  };
}
