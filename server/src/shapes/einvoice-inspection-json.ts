// What POST /v1/einvoice/inspect answers (docs/api.md#reading-an-e-invoice): the syntax, profile,
// every rule set's report and the invoice as our JSON, shared by the server (services/einvoice/inspect.ts
// writes it) and the admin UI (ui/src/api/einvoice.ts reads it), so the two cannot drift. Types only.

/** The rule sets we run; einvoice/rules/rule-sets.ts keeps one per name (checked there). */
export type RuleSetName = 'en16931' | 'xrechnung' | 'peppol';

/** One finding of a rule: the official id, our sentence, the element at fault. */
export interface RuleFinding {
  id: string;
  detail: string;
  location: string;
}

export interface RuleSetReport {
  fatal: RuleFinding[];
  warnings: RuleFinding[];
  /** Set on a rule set not yet complete: a clean report does not mean the official one is. */
  partial?: true;
}

/** What was sent: the XML itself, or a PDF whose attachment (by its name) was read. */
export type EInvoiceOrigin = { kind: 'xml' } | { kind: 'pdf'; attachment: string };

export interface EInvoiceInspection {
  syntax: 'CII' | 'UBL';
  document: 'Invoice' | 'CreditNote';
  specification_id: string | null;
  profile: string | null;
  /** The rule set the invoice's specification identifier (BT-24) names. */
  rule_set: RuleSetName;
  valid: boolean;
  rule_sets: Record<RuleSetName, RuleSetReport>;
  /** The EN 16931 model read from the XML, as our JSON (keys in snake_case). */
  invoice: Record<string, unknown>;
}

/** The inspection with where its XML was read from, as the inspect endpoints answer it. */
export type SourcedInspection = EInvoiceInspection & { source: EInvoiceOrigin };
