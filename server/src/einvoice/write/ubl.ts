// Model -> UBL 2.1: an Invoice, or a CreditNote when the type code (BT-3) is one of the UBL credit
// note codes. Elements follow the UBL 2.1 document sequence (the two roots differ in where the tax
// point date, due date and project reference go); parties and lines in ubl-parties/ubl-lines.ts.

import { UBL_CREDIT_NOTE_TYPE_CODES } from '../codes/code-lists.ts';
import type { Invoice, PaymentMeans, SupportingDocument } from '../model/invoice-model.ts';
import { NS } from '../xml/located-node.ts';
import { ublAllowanceCharge, ublAmount, ublLine, ublPeriod } from './ubl-lines.ts';
import { ublAddress, ublBuyer, ublId, ublPayee, ublSeller, ublTaxRepresentative } from './ubl-parties.ts';
import { ublDate } from './ubl-date.ts';
import { vatDateCodeFor } from './vat-date-code.ts';
import { always, type Child, group, leaf, toXml } from './xml-tree.ts';

/** Whether the invoice is written as a UBL CreditNote: its type code says so. */
export function isUblCreditNote(invoice: Invoice): boolean {
  return UBL_CREDIT_NOTE_TYPE_CODES.has(invoice.typeCode?.value ?? '');
}

export function writeUbl(invoice: Invoice): string {
  const creditNote = isUblCreditNote(invoice);
  const currency = invoice.currency?.value;
  const dateCode = invoice.syntax === 'UBL' ? invoice.vatPointDateCode?.value : vatDateCodeFor('UBL', invoice.vatPointDateCode?.value);
  // UBL has no element for the SEPA creditor id (BT-90): it is a payee, else seller, identifier of scheme SEPA.
  const creditorIds = invoice.paymentMeans.flatMap((means) => (means.directDebit?.creditorId ? [{ ...means.directDebit.creditorId, scheme: 'SEPA' }] : []));
  const partyIds = [...(invoice.payee?.identifiers ?? []), ...(invoice.seller?.identifiers ?? [])];
  const newCreditorIds = creditorIds.filter(
    (id, index) => !partyIds.some((known) => known.value === id.value) && creditorIds.findIndex((other) => other.value === id.value) === index,
  );
  const [firstVatTotal, ...otherVatTotals] = invoice.totals?.vatTotals ?? [];
  const totals = invoice.totals;
  const typeCode = leaf(creditNote ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', invoice.typeCode?.value);
  const taxPointDate = leaf('cbc:TaxPointDate', ublDate(invoice.vatPointDate));
  const objectReference =
    invoice.invoicedObject && group('cac:AdditionalDocumentReference', ublId('cbc:ID', invoice.invoicedObject), leaf('cbc:DocumentTypeCode', '130'));
  const root = always(
    creditNote ? 'CreditNote' : 'Invoice',
    { xmlns: creditNote ? NS.cn : NS.ubl, 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc },
    leaf('cbc:CustomizationID', invoice.specification?.value),
    leaf('cbc:ProfileID', invoice.businessProcess?.value),
    leaf('cbc:ID', invoice.number?.value),
    leaf('cbc:IssueDate', ublDate(invoice.issueDate)),
    creditNote ? [taxPointDate, typeCode] : [leaf('cbc:DueDate', ublDate(invoice.dueDate)), typeCode],
    invoice.notes.map((note) => leaf('cbc:Note', note.text?.value)),
    !creditNote && taxPointDate,
    leaf('cbc:DocumentCurrencyCode', currency),
    leaf('cbc:TaxCurrencyCode', invoice.vatAccountingCurrency?.value),
    leaf('cbc:AccountingCost', invoice.buyerAccountingReference?.value),
    leaf('cbc:BuyerReference', invoice.buyerReference?.value),
    (!!invoice.invoicePeriod || !!dateCode) && ublPeriod(invoice.invoicePeriod, dateCode),
    (invoice.purchaseOrderReference || invoice.salesOrderReference) &&
      // OrderReference/ID is mandatory in UBL; with only a sales order, Peppol's convention is "NA".
      group('cac:OrderReference', leaf('cbc:ID', invoice.purchaseOrderReference?.value ?? 'NA'), leaf('cbc:SalesOrderID', invoice.salesOrderReference?.value)),
    invoice.precedingInvoices.map((preceding) =>
      group(
        'cac:BillingReference',
        group('cac:InvoiceDocumentReference', leaf('cbc:ID', preceding.reference?.value), leaf('cbc:IssueDate', ublDate(preceding.issueDate))),
      ),
    ),
    group('cac:DespatchDocumentReference', leaf('cbc:ID', invoice.despatchAdviceReference?.value)),
    group('cac:ReceiptDocumentReference', leaf('cbc:ID', invoice.receivingAdviceReference?.value)),
    // The two roots order these references differently (Invoice: originator before contract).
    !creditNote && group('cac:OriginatorDocumentReference', leaf('cbc:ID', invoice.tenderOrLotReference?.value)),
    group('cac:ContractDocumentReference', leaf('cbc:ID', invoice.contractReference?.value)),
    objectReference,
    invoice.supportingDocuments.map(supportingDocument),
    creditNote && group('cac:OriginatorDocumentReference', leaf('cbc:ID', invoice.tenderOrLotReference?.value)),
    !creditNote && group('cac:ProjectReference', leaf('cbc:ID', invoice.projectReference?.value)),
    ublSeller(invoice.seller, invoice.payee ? [] : newCreditorIds),
    ublBuyer(invoice.buyer),
    ublPayee(invoice.payee, newCreditorIds),
    ublTaxRepresentative(invoice.taxRepresentative),
    invoice.delivery &&
      group(
        'cac:Delivery',
        leaf('cbc:ActualDeliveryDate', ublDate(invoice.delivery.actualDate)),
        group('cac:DeliveryLocation', ublId('cbc:ID', invoice.delivery.locationId), ublAddress('cac:Address', invoice.delivery.address)),
        group('cac:DeliveryParty', group('cac:PartyName', leaf('cbc:Name', invoice.delivery.partyName?.value))),
      ),
    invoice.paymentMeans.map((means, index) => paymentMeans(means, creditNote && index === 0 ? ublDate(invoice.dueDate) : undefined)),
    group('cac:PaymentTerms', leaf('cbc:Note', invoice.paymentTerms?.value)),
    invoice.allowancesCharges.map((charge) => ublAllowanceCharge(charge, currency)),
    firstVatTotal &&
      group(
        'cac:TaxTotal',
        ublAmount('cbc:TaxAmount', firstVatTotal, currency),
        invoice.vatBreakdown.map((vat) =>
          group(
            'cac:TaxSubtotal',
            ublAmount('cbc:TaxableAmount', vat.taxableAmount, currency),
            ublAmount('cbc:TaxAmount', vat.taxAmount, currency),
            group(
              'cac:TaxCategory',
              leaf('cbc:ID', vat.categoryCode?.value),
              leaf('cbc:Percent', vat.rate?.value),
              leaf('cbc:TaxExemptionReasonCode', vat.exemptionReasonCode?.value),
              leaf('cbc:TaxExemptionReason', vat.exemptionReason?.value),
              group('cac:TaxScheme', leaf('cbc:ID', 'VAT')),
            ),
          ),
        ),
      ),
    otherVatTotals.map((total) => group('cac:TaxTotal', ublAmount('cbc:TaxAmount', total, currency))),
    totals &&
      group(
        'cac:LegalMonetaryTotal',
        ublAmount('cbc:LineExtensionAmount', totals.lineNetTotal, currency),
        ublAmount('cbc:TaxExclusiveAmount', totals.taxExclusive, currency),
        ublAmount('cbc:TaxInclusiveAmount', totals.taxInclusive, currency),
        ublAmount('cbc:AllowanceTotalAmount', totals.allowanceTotal, currency),
        ublAmount('cbc:ChargeTotalAmount', totals.chargeTotal, currency),
        ublAmount('cbc:PrepaidAmount', totals.prepaid, currency),
        ublAmount('cbc:PayableRoundingAmount', totals.rounding, currency),
        ublAmount('cbc:PayableAmount', totals.payable, currency),
      ),
    invoice.lines.map((line) => ublLine(line, creditNote, currency)),
  );
  return toXml(root);
}

function supportingDocument(doc: SupportingDocument): Child {
  const attachment = doc.attachment;
  return group(
    'cac:AdditionalDocumentReference',
    leaf('cbc:ID', doc.reference?.value),
    leaf('cbc:DocumentDescription', doc.description?.value),
    group(
      'cac:Attachment',
      attachment && leaf('cbc:EmbeddedDocumentBinaryObject', attachment.value, { mimeCode: attachment.mimeCode, filename: attachment.filename }),
      group('cac:ExternalReference', leaf('cbc:URI', doc.externalUri?.value)),
    ),
  );
}

/** BG-16; a credit note has no DueDate, so BT-9 goes on its first payment means. */
function paymentMeans(means: PaymentMeans, dueDate: string | undefined): Child {
  const { card, directDebit } = means;
  return group(
    'cac:PaymentMeans',
    leaf('cbc:PaymentMeansCode', means.typeCode?.value, { name: means.text?.value }),
    leaf('cbc:PaymentDueDate', dueDate),
    leaf('cbc:PaymentID', means.remittanceInformation?.value),
    // NetworkID is mandatory in UBL and not an EN 16931 term; the model does not keep it.
    card &&
      group(
        'cac:CardAccount',
        leaf('cbc:PrimaryAccountNumberID', card.accountNumber?.value),
        leaf('cbc:NetworkID', 'NA'),
        leaf('cbc:HolderName', card.holderName?.value),
      ),
    means.creditTransfers.map((account) =>
      group(
        'cac:PayeeFinancialAccount',
        leaf('cbc:ID', account.accountId?.value),
        leaf('cbc:Name', account.accountName?.value),
        group('cac:FinancialInstitutionBranch', leaf('cbc:ID', account.serviceProviderId?.value)),
      ),
    ),
    directDebit &&
      group(
        'cac:PaymentMandate',
        leaf('cbc:ID', directDebit.mandateReference?.value),
        group('cac:PayerFinancialAccount', leaf('cbc:ID', directDebit.debitedAccount?.value)),
      ),
  );
}
