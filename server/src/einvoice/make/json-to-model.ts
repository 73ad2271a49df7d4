// JSON invoice (invoice-json.ts) + its computed amounts (json-amounts.ts) -> the EN 16931 model the
// writers take. Every value's path is the JSON field it came from, so a problem found on the model
// names the field. Parties, lines and payment in json-model-parts.ts.

import type { Invoice } from '../model/invoice-model.ts';
import type { Computed } from './json-amounts.ts';
import type { MakeInvoice } from './invoice-json.ts';
import { at, dateAt, modelAddress, modelAllowanceCharge, modelLine, modelParty, modelPaymentMeans } from './json-model-parts.ts';

export interface ModelTarget {
  syntax: 'CII' | 'UBL';
  specification: string;
  businessProcess?: string;
}

export function jsonToModel(json: MakeInvoice, computed: Computed, target: ModelTarget, field: string): Invoice {
  const p = (name: string) => `${field}.${name}`;
  const notes = [...(json.note !== undefined ? [{ text: json.note }] : []), ...(json.notes ?? [])];
  const delivery = json.delivery;
  const deliveryDate = delivery?.date ?? json.delivery_date;
  const { totals } = computed;
  return {
    syntax: target.syntax,
    root: target.syntax === 'CII' ? 'CrossIndustryInvoice' : 'Invoice',
    path: field,
    number: at(json.number, p('number')),
    issueDate: dateAt(json.issue_date, p('issue_date')),
    typeCode: at(json.type_code, p('type_code')),
    currency: at(json.currency, p('currency')),
    vatPointDate: dateAt(json.vat_point_date, p('vat_point_date')),
    dueDate: dateAt(json.payment.due_date, p('payment.due_date')),
    buyerReference: at(json.buyer_reference, p('buyer_reference')),
    projectReference: at(json.project_reference, p('project_reference')),
    contractReference: at(json.contract_reference, p('contract_reference')),
    purchaseOrderReference: at(json.order_reference, p('order_reference')),
    salesOrderReference: at(json.sales_order_reference, p('sales_order_reference')),
    receivingAdviceReference: at(json.receiving_advice_reference, p('receiving_advice_reference')),
    despatchAdviceReference: at(json.despatch_advice_reference, p('despatch_advice_reference')),
    tenderOrLotReference: at(json.tender_reference, p('tender_reference')),
    buyerAccountingReference: at(json.buyer_accounting_reference, p('buyer_accounting_reference')),
    paymentTerms: at(json.payment.terms, p('payment.terms')),
    notes: notes.map((note, index) => ({
      path: p(`notes[${index}]`),
      text: at(note.text, p(`notes[${index}].text`)),
      subjectCode: at('subject_code' in note ? note.subject_code : undefined, p(`notes[${index}].subject_code`)),
    })),
    businessProcess: at(json.business_process ?? target.businessProcess, p('business_process')),
    specification: at(target.specification, 'format'),
    precedingInvoices: (json.preceding_invoices ?? []).map((preceding, index) => ({
      path: p(`preceding_invoices[${index}]`),
      reference: at(preceding.number, p(`preceding_invoices[${index}].number`)),
      issueDate: dateAt(preceding.issue_date, p(`preceding_invoices[${index}].issue_date`)),
    })),
    seller: modelParty(json.seller, p('seller'), true),
    buyer: modelParty(json.buyer, p('buyer'), false),
    delivery:
      delivery || deliveryDate
        ? {
            path: p('delivery'),
            partyName: at(delivery?.party_name, p('delivery.party_name')),
            locationId: delivery?.location_id && { value: delivery.location_id.id, scheme: delivery.location_id.scheme, path: p('delivery.location_id') },
            actualDate: dateAt(deliveryDate, p(delivery?.date ? 'delivery.date' : 'delivery_date')),
            address: delivery?.address && modelAddress(delivery.address, p('delivery.address')),
          }
        : undefined,
    invoicePeriod: json.invoice_period && {
      path: p('invoice_period'),
      start: dateAt(json.invoice_period.start, p('invoice_period.start')),
      end: dateAt(json.invoice_period.end, p('invoice_period.end')),
    },
    paymentMeans: modelPaymentMeans(json.payment, p('payment')),
    allowancesCharges: computed.charges.map((charge, index) => modelAllowanceCharge(charge, p(`allowances_charges[${index}]`), true)),
    totals: {
      path: p('totals'),
      lineNetTotal: at(totals.lineNet, p('totals.line_total')),
      allowanceTotal: at(totals.allowances, p('totals.allowance_total')),
      chargeTotal: at(totals.charges, p('totals.charge_total')),
      taxExclusive: at(totals.taxExclusive, p('totals.tax_basis_total')),
      vatTotals: [{ value: totals.tax, path: p('totals.tax_total'), currency: json.currency }],
      taxInclusive: at(totals.taxInclusive, p('totals.grand_total')),
      prepaid: at(totals.prepaid, p('totals.prepaid')),
      rounding: at(totals.rounding, p('totals.rounding')),
      payable: at(totals.payable, p('totals.due_payable')),
    },
    vatBreakdown: computed.vat.map((entry, index) => {
      const path = p(entry.field ?? `vat_breakdown[${index}]`);
      return {
        path,
        taxableAmount: at(entry.taxable, `${path}.taxable_amount`),
        taxAmount: at(entry.tax, `${path}.tax_amount`),
        categoryCode: at(entry.category, `${path}.vat_category`),
        rate: at(entry.rate, `${path}.vat_rate`),
        exemptionReason: at(entry.exemptionReason, `${path}.exemption_reason`),
        exemptionReasonCode: at(entry.exemptionReasonCode, `${path}.exemption_reason_code`),
      };
    }),
    supportingDocuments: (json.supporting_documents ?? []).map((doc, index) => {
      const path = p(`supporting_documents[${index}]`);
      return {
        path,
        reference: at(doc.reference, `${path}.reference`),
        description: at(doc.description, `${path}.description`),
        externalUri: at(doc.uri, `${path}.uri`),
        attachment: doc.attachment && {
          value: doc.attachment.content_base64,
          mimeCode: doc.attachment.mime_code,
          filename: doc.attachment.filename,
          path: `${path}.attachment`,
        },
      };
    }),
    lines: json.lines.map((line, index) => modelLine(line, computed.lines[index]!, index, p(`lines[${index}]`))),
  };
}
