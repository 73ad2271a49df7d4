// Model -> CII D16B (rsm:CrossIndustryInvoice, the syntax of Factur-X/ZUGFeRD and XRechnung CII):
// context, document, then the trade transaction's lines, agreement, delivery and settlement in the
// CII schema's sequence, dates as format 102. Parties and lines in cii-parties.ts, cii-lines.ts.

import type { Invoice, PaymentMeans, SupportingDocument } from '../model/invoice-model.ts';
import { NS } from '../xml/located-node.ts';
import { ciiAllowanceCharge, ciiLine, ciiPeriod } from './cii-lines.ts';
import { ciiBuyer, ciiPayee, ciiSeller, ciiShipTo, ciiTaxRepresentative } from './cii-parties.ts';
import { ciiAmount, ciiDate } from './cii-values.ts';
import { vatDateCodeFor } from './vat-date-code.ts';
import { always, type Child, group, leaf, toXml } from './xml-tree.ts';

const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/;
const reference = (name: string, id: string | undefined) => group(name, leaf('ram:IssuerAssignedID', id));

export function writeCii(invoice: Invoice): string {
  const currency = invoice.currency?.value;
  const totals = invoice.totals;
  const dateCode = invoice.syntax === 'CII' ? invoice.vatPointDateCode?.value : vatDateCodeFor('CII', invoice.vatPointDateCode?.value);
  const debit = invoice.paymentMeans.find((means) => means.directDebit)?.directDebit;
  const delivery = invoice.delivery;
  const root = always(
    'rsm:CrossIndustryInvoice',
    { 'xmlns:rsm': NS.rsm, 'xmlns:ram': NS.ram, 'xmlns:udt': NS.udt, 'xmlns:qdt': NS.qdt },
    group(
      'rsm:ExchangedDocumentContext',
      group('ram:BusinessProcessSpecifiedDocumentContextParameter', leaf('ram:ID', invoice.businessProcess?.value)),
      group('ram:GuidelineSpecifiedDocumentContextParameter', leaf('ram:ID', invoice.specification?.value)),
    ),
    group(
      'rsm:ExchangedDocument',
      leaf('ram:ID', invoice.number?.value),
      leaf('ram:TypeCode', invoice.typeCode?.value),
      ciiDate('ram:IssueDateTime', invoice.issueDate),
      invoice.notes.map((note) => group('ram:IncludedNote', leaf('ram:Content', note.text?.value), leaf('ram:SubjectCode', note.subjectCode?.value))),
    ),
    always(
      'rsm:SupplyChainTradeTransaction',
      {},
      invoice.lines.map(ciiLine),
      always(
        'ram:ApplicableHeaderTradeAgreement',
        {},
        leaf('ram:BuyerReference', invoice.buyerReference?.value),
        ciiSeller(invoice.seller),
        ciiBuyer(invoice.buyer),
        ciiTaxRepresentative(invoice.taxRepresentative),
        reference('ram:SellerOrderReferencedDocument', invoice.salesOrderReference?.value),
        reference('ram:BuyerOrderReferencedDocument', invoice.purchaseOrderReference?.value),
        reference('ram:ContractReferencedDocument', invoice.contractReference?.value),
        invoice.supportingDocuments.map(supportingDocument),
        invoice.tenderOrLotReference &&
          group('ram:AdditionalReferencedDocument', leaf('ram:IssuerAssignedID', invoice.tenderOrLotReference.value), leaf('ram:TypeCode', '50')),
        invoice.invoicedObject &&
          group(
            'ram:AdditionalReferencedDocument',
            leaf('ram:IssuerAssignedID', invoice.invoicedObject.value),
            leaf('ram:TypeCode', '130'),
            leaf('ram:ReferenceTypeCode', invoice.invoicedObject.scheme),
          ),
        // CII requires a project name; EN 16931 has none, so the binding's fixed text is written.
        invoice.projectReference &&
          group('ram:SpecifiedProcuringProject', leaf('ram:ID', invoice.projectReference.value), leaf('ram:Name', 'Project reference')),
      ),
      // Mandatory in CII even when there is nothing to say about delivery.
      always(
        'ram:ApplicableHeaderTradeDelivery',
        {},
        ciiShipTo(delivery && (delivery.partyName || delivery.locationId || delivery.address) ? delivery : undefined),
        group('ram:ActualDeliverySupplyChainEvent', ciiDate('ram:OccurrenceDateTime', delivery?.actualDate)),
        reference('ram:DespatchAdviceReferencedDocument', invoice.despatchAdviceReference?.value),
        reference('ram:ReceivingAdviceReferencedDocument', invoice.receivingAdviceReference?.value),
      ),
      always(
        'ram:ApplicableHeaderTradeSettlement',
        {},
        leaf('ram:CreditorReferenceID', debit?.creditorId?.value),
        leaf('ram:PaymentReference', invoice.paymentMeans.find((means) => means.remittanceInformation)?.remittanceInformation?.value),
        leaf('ram:TaxCurrencyCode', invoice.vatAccountingCurrency?.value),
        leaf('ram:InvoiceCurrencyCode', currency),
        ciiPayee(invoice.payee),
        invoice.paymentMeans.map(paymentMeans),
        invoice.vatBreakdown.map((vat, n) =>
          group(
            'ram:ApplicableTradeTax',
            ciiAmount('ram:CalculatedAmount', vat.taxAmount),
            leaf('ram:TypeCode', 'VAT'),
            leaf('ram:ExemptionReason', vat.exemptionReason?.value),
            ciiAmount('ram:BasisAmount', vat.taxableAmount),
            leaf('ram:CategoryCode', vat.categoryCode?.value),
            leaf('ram:ExemptionReasonCode', vat.exemptionReasonCode?.value),
            // BT-7 and BT-8 are document-level terms CII carries on a VAT breakdown; the date goes on the
            // first one only, as CII-SR-461 allows one in the whole settlement.
            n === 0 ? ciiDate('ram:TaxPointDate', invoice.vatPointDate, 'udt:DateString') : undefined,
            leaf('ram:DueDateTypeCode', dateCode),
            leaf('ram:RateApplicablePercent', vat.rate?.value),
          ),
        ),
        ciiPeriod(invoice.invoicePeriod),
        invoice.allowancesCharges.map(ciiAllowanceCharge),
        group(
          'ram:SpecifiedTradePaymentTerms',
          leaf('ram:Description', invoice.paymentTerms?.value),
          ciiDate('ram:DueDateDateTime', invoice.dueDate),
          leaf('ram:DirectDebitMandateID', debit?.mandateReference?.value),
        ),
        totals &&
          group(
            'ram:SpecifiedTradeSettlementHeaderMonetarySummation',
            ciiAmount('ram:LineTotalAmount', totals.lineNetTotal),
            ciiAmount('ram:ChargeTotalAmount', totals.chargeTotal),
            ciiAmount('ram:AllowanceTotalAmount', totals.allowanceTotal),
            ciiAmount('ram:TaxBasisTotalAmount', totals.taxExclusive),
            // CII's rules want the currency on the VAT total (it tells BT-110 from BT-111).
            totals.vatTotals.map((total) => ciiAmount('ram:TaxTotalAmount', total, currency)),
            ciiAmount('ram:RoundingAmount', totals.rounding),
            ciiAmount('ram:GrandTotalAmount', totals.taxInclusive),
            ciiAmount('ram:TotalPrepaidAmount', totals.prepaid),
            ciiAmount('ram:DuePayableAmount', totals.payable),
          ),
        invoice.precedingInvoices.map((preceding) =>
          group(
            'ram:InvoiceReferencedDocument',
            leaf('ram:IssuerAssignedID', preceding.reference?.value),
            ciiDate('ram:FormattedIssueDateTime', preceding.issueDate, 'qdt:DateTimeString'),
          ),
        ),
        group('ram:ReceivableSpecifiedTradeAccountingAccount', leaf('ram:ID', invoice.buyerAccountingReference?.value)),
      ),
    ),
  );
  return toXml(root);
}

function supportingDocument(doc: SupportingDocument): Child {
  const attachment = doc.attachment;
  return group(
    'ram:AdditionalReferencedDocument',
    leaf('ram:IssuerAssignedID', doc.reference?.value),
    leaf('ram:URIID', doc.externalUri?.value),
    leaf('ram:TypeCode', '916'),
    leaf('ram:Name', doc.description?.value),
    attachment && leaf('ram:AttachmentBinaryObject', attachment.value, { mimeCode: attachment.mimeCode, filename: attachment.filename }),
  );
}

function paymentMeans(means: PaymentMeans): Child {
  const { card, directDebit } = means;
  const bic = means.creditTransfers.find((account) => account.serviceProviderId)?.serviceProviderId?.value;
  return group(
    'ram:SpecifiedTradeSettlementPaymentMeans',
    leaf('ram:TypeCode', means.typeCode?.value),
    leaf('ram:Information', means.text?.value),
    card && group('ram:ApplicableTradeSettlementFinancialCard', leaf('ram:ID', card.accountNumber?.value), leaf('ram:CardholderName', card.holderName?.value)),
    group('ram:PayerPartyDebtorFinancialAccount', leaf('ram:IBANID', directDebit?.debitedAccount?.value)),
    means.creditTransfers.map((account) => {
      const id = account.accountId?.value;
      const iban = id !== undefined && IBAN.test(id.replaceAll(' ', ''));
      return group(
        'ram:PayeePartyCreditorFinancialAccount',
        leaf('ram:IBANID', iban ? id : undefined),
        leaf('ram:AccountName', account.accountName?.value),
        leaf('ram:ProprietaryID', iban ? undefined : id),
      );
    }),
    group('ram:PayeeSpecifiedCreditorFinancialInstitution', leaf('ram:BICID', bic)),
  );
}
