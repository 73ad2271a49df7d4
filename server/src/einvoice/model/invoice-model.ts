// The EN 16931 semantic invoice (and credit note): its business terms (BT-x) and groups (BG-x),
// named readably with the id beside each. Readers fill it from CII or UBL, the rules run on it,
// writers make XML from it. Every value keeps its source location; amounts stay decimal strings
// as written (decimal.ts does the exact sums), so nothing is rounded on the way in.

import type { Located } from '../xml/located-node.ts';

export type { Located };
/** A text business term. */
export type Text = Located<string>;
/** An amount as written (a decimal string), with the currencyID the syntax gave it, if any. */
export type Amount = Located<string> & { currency?: string };
/** A date as written; `iso` is YYYY-MM-DD when the text is a date of the syntax's form. */
export type DateValue = Located<string> & { iso?: string; format?: string };
/** An identifier with its scheme (ISO 6523 ICD, EAS, ...). */
export type Identifier = Located<string> & { scheme?: string };
export type Quantity = Located<string> & { unitCode?: string };

export type Syntax = 'CII' | 'UBL';

export interface Invoice {
  syntax: Syntax;
  /** UBL's root tells an invoice from a credit note; CII has one root and says it in BT-3. */
  root: 'Invoice' | 'CreditNote' | 'CrossIndustryInvoice';
  path: string;
  number?: Text; // BT-1
  issueDate?: DateValue; // BT-2
  typeCode?: Text; // BT-3
  currency?: Text; // BT-5
  vatAccountingCurrency?: Text; // BT-6
  vatPointDate?: DateValue; // BT-7
  vatPointDateCode?: Text; // BT-8
  dueDate?: DateValue; // BT-9
  buyerReference?: Text; // BT-10
  projectReference?: Text; // BT-11
  contractReference?: Text; // BT-12
  purchaseOrderReference?: Text; // BT-13
  salesOrderReference?: Text; // BT-14
  receivingAdviceReference?: Text; // BT-15
  despatchAdviceReference?: Text; // BT-16
  tenderOrLotReference?: Text; // BT-17
  invoicedObject?: Identifier; // BT-18
  buyerAccountingReference?: Text; // BT-19
  paymentTerms?: Text; // BT-20
  notes: Note[]; // BG-1
  businessProcess?: Text; // BT-23 (BG-2)
  specification?: Text; // BT-24 (BG-2)
  precedingInvoices: PrecedingInvoice[]; // BG-3
  seller?: Seller; // BG-4
  buyer?: Buyer; // BG-7
  payee?: Payee; // BG-10
  taxRepresentative?: TaxRepresentative; // BG-11
  delivery?: Delivery; // BG-13
  invoicePeriod?: Period; // BG-14
  paymentMeans: PaymentMeans[]; // BG-16
  /** BG-20 and BG-21 in document order. */
  allowancesCharges: AllowanceCharge[];
  totals?: DocumentTotals; // BG-22
  vatBreakdown: VatBreakdown[]; // BG-23
  supportingDocuments: SupportingDocument[]; // BG-24
  lines: InvoiceLine[]; // BG-25
}

export interface Note {
  path: string;
  subjectCode?: Text; // BT-21
  text?: Text; // BT-22
}

export interface PrecedingInvoice {
  path: string;
  reference?: Text; // BT-25
  issueDate?: DateValue; // BT-26
}

export interface Address {
  path: string;
  line1?: Text; // BT-35 / BT-50 / BT-64 / BT-75
  line2?: Text; // BT-36 / BT-51 / BT-65 / BT-76
  line3?: Text; // BT-162 / BT-163 / BT-164 / BT-165
  city?: Text; // BT-37 / BT-52 / BT-66 / BT-77
  postCode?: Text; // BT-38 / BT-53 / BT-67 / BT-78
  subdivision?: Text; // BT-39 / BT-54 / BT-68 / BT-79
  countryCode?: Text; // BT-40 / BT-55 / BT-69 / BT-80
}

export interface Contact {
  path: string;
  name?: Text; // BT-41 / BT-56
  phone?: Text; // BT-42 / BT-57
  email?: Text; // BT-43 / BT-58
}

interface PartyCore {
  path: string;
  name?: Text; // BT-27 / BT-44
  tradingName?: Text; // BT-28 / BT-45
  identifiers: Identifier[]; // BT-29 / BT-46
  legalRegistration?: Identifier; // BT-30 / BT-47
  vatId?: Text; // BT-31 / BT-48
  electronicAddress?: Identifier; // BT-34 / BT-49
  address?: Address; // BG-5 / BG-8
  contact?: Contact; // BG-6 / BG-9
}

export interface Seller extends PartyCore {
  taxRegistrationId?: Text; // BT-32 (a local tax number, scheme FC in CII)
  additionalLegalInfo?: Text; // BT-33
}

export type Buyer = PartyCore;

export interface Payee {
  path: string;
  name?: Text; // BT-59
  identifiers: Identifier[]; // BT-60
  legalRegistration?: Identifier; // BT-61
}

export interface TaxRepresentative {
  path: string;
  name?: Text; // BT-62
  vatId?: Text; // BT-63
  address?: Address; // BG-12
}

export interface Delivery {
  path: string;
  partyName?: Text; // BT-70
  locationId?: Identifier; // BT-71
  actualDate?: DateValue; // BT-72
  address?: Address; // BG-15
}

export interface Period {
  path: string;
  start?: DateValue; // BT-73 / BT-134
  end?: DateValue; // BT-74 / BT-135
  descriptionCode?: Text; // BT-8 in UBL's InvoicePeriod
}

export interface PaymentMeans {
  path: string;
  typeCode?: Text; // BT-81
  text?: Text; // BT-82
  remittanceInformation?: Text; // BT-83
  creditTransfers: CreditTransfer[]; // BG-17
  card?: { path: string; accountNumber?: Text; holderName?: Text }; // BG-18 (BT-87, BT-88)
  directDebit?: { path: string; mandateReference?: Text; creditorId?: Identifier; debitedAccount?: Text }; // BG-19 (BT-89..91)
}

export interface CreditTransfer {
  path: string;
  accountId?: Text; // BT-84 (IBAN or proprietary id)
  accountName?: Text; // BT-85
  serviceProviderId?: Text; // BT-86 (BIC)
}

/** A document (BG-20/21) or line (BG-27/28) allowance or charge. */
export interface AllowanceCharge {
  path: string;
  isCharge: boolean;
  amount?: Amount; // BT-92 / BT-99 / BT-136 / BT-141
  baseAmount?: Amount; // BT-93 / BT-100 / BT-137 / BT-142
  percentage?: Text; // BT-94 / BT-101 / BT-138 / BT-143
  vatCategory?: Text; // BT-95 / BT-102 (document level only)
  vatRate?: Text; // BT-96 / BT-103
  reason?: Text; // BT-97 / BT-104 / BT-139 / BT-144
  reasonCode?: Text; // BT-98 / BT-105 / BT-140 / BT-145
}

export interface DocumentTotals {
  path: string;
  lineNetTotal?: Amount; // BT-106
  allowanceTotal?: Amount; // BT-107
  chargeTotal?: Amount; // BT-108
  taxExclusive?: Amount; // BT-109
  /** BT-110 and BT-111: every VAT total written, each with its currency. */
  vatTotals: Amount[];
  taxInclusive?: Amount; // BT-112
  prepaid?: Amount; // BT-113
  rounding?: Amount; // BT-114
  payable?: Amount; // BT-115
}

export interface VatBreakdown {
  path: string;
  taxableAmount?: Amount; // BT-116
  taxAmount?: Amount; // BT-117
  categoryCode?: Text; // BT-118
  rate?: Text; // BT-119
  exemptionReason?: Text; // BT-120
  exemptionReasonCode?: Text; // BT-121
}

export interface SupportingDocument {
  path: string;
  reference?: Text; // BT-122
  description?: Text; // BT-123
  externalUri?: Text; // BT-124
  attachment?: Located<string> & { mimeCode?: string; filename?: string }; // BT-125
}

export interface InvoiceLine {
  path: string;
  id?: Text; // BT-126
  note?: Text; // BT-127
  objectIdentifier?: Identifier; // BT-128
  quantity?: Quantity; // BT-129, BT-130 (unit)
  netAmount?: Amount; // BT-131
  orderLineReference?: Text; // BT-132
  accountingReference?: Text; // BT-133
  period?: Period; // BG-26
  allowancesCharges: AllowanceCharge[]; // BG-27, BG-28
  netPrice?: Amount; // BT-146
  /** How many net price elements the line has (CII-SR-439 wants exactly one). */
  netPriceCount: number;
  priceDiscount?: Amount; // BT-147
  grossPrice?: Amount; // BT-148
  /** The base quantity written with the gross price (CII only; XRechnung wants it equal to BT-149). */
  grossPriceBaseQuantity?: Quantity;
  baseQuantity?: Quantity; // BT-149, BT-150
  vatCategory?: Text; // BT-151
  vatRate?: Text; // BT-152
  item: Item; // BG-31
}

export interface Item {
  path: string;
  name?: Text; // BT-153
  description?: Text; // BT-154
  sellerId?: Text; // BT-155
  buyerId?: Text; // BT-156
  standardId?: Identifier; // BT-157
  classifications: Identifier[]; // BT-158 (scheme = listID)
  originCountry?: Text; // BT-159
  attributes: { path: string; name?: Text; value?: Text }[]; // BG-32 (BT-160, BT-161)
}
