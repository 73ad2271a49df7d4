// The last steps an output takes after it is made (rendered, converted, merged or transformed)
// and before it is kept and counted: attachments and the e-invoice, then PDF/A with its
// conformance report, then the signature, which comes last because it covers every byte before
// it (docs/decisions.md, "The order of the final steps"). Each step lives in its own module and is
// handed to RenderService by app.ts; this file only knows the order and how to run them.

import type { Account } from '../accounts/keys.ts';
import { timed } from '../../telemetry/spans.ts';

/**
 * The options the final steps read, by the names the API spells them. Each step owns its own
 * fields and their schema; a source that offers the steps spreads those schemas into its options.
 */
export interface OutputOptions {
  pdf_a?: unknown;
  attachments?: unknown;
  e_invoice?: unknown;
  sign?: unknown;
  /** Fields the steps must compose with (an encrypted file cannot be PDF/A, for one). */
  encrypt?: unknown;
}

/** What a step adds to the response and the receipt besides the new bytes. */
export interface StepOutcome {
  pdf: Uint8Array;
  /** Response headers (X-PDF-Conformance, ...), the same on a stored copy's answer. */
  headers?: Record<string, string>;
  /** What the receipt records of this step (never a secret). */
  report?: Record<string, unknown>;
}

export interface StepContext {
  account: Account;
  /** Where the options sit in the request, for error messages ("options", "requests[2].options"). */
  field: string;
  /** A template render's data (an e-invoice can be written from it: options.e_invoice.from_data). */
  data?: Record<string, unknown>;
}

export interface OutputStep {
  /** The step's name in receipts and traces: "attachments", "pdf_a", "sign". */
  readonly name: string;
  /** Where it runs: lower first. Attachments 10, PDF/A 20, signing 90. */
  readonly order: number;
  /** Whether these options ask for the step at all. */
  wanted(options: OutputOptions): boolean;
  /**
   * Refuses options that cannot be done or cannot compose, with an ApiError naming the field,
   * before anything is charged or rendered. Called for every output, wanted or not.
   */
  check(options: OutputOptions, context: StepContext): Promise<void> | void;
  apply(pdf: Uint8Array, options: OutputOptions, context: StepContext): Promise<StepOutcome>;
}

/** One step's record in a receipt: its name, time and what it reported. */
export interface StepRecord {
  step: string;
  ms: number;
  bytesBefore: number;
  bytesAfter: number;
  report?: Record<string, unknown>;
}

export interface FinalOutput {
  pdf: Uint8Array;
  headers: Record<string, string>;
  steps: StepRecord[];
}

/** The final steps in their order; an empty list leaves every output as it was made. */
export class OutputSteps {
  private readonly steps: OutputStep[];

  constructor(steps: OutputStep[] = []) {
    this.steps = [...steps].sort((a, b) => a.order - b.order);
  }

  /** Every step's refusals, before anything is charged. */
  async check(options: OutputOptions | undefined, context: StepContext): Promise<void> {
    if (!options) return;
    for (const step of this.steps) await step.check(options, context);
  }

  /** Whether any step will change the bytes. */
  wanted(options: OutputOptions | undefined): boolean {
    return options !== undefined && this.steps.some((step) => step.wanted(options));
  }

  /** The bytes through every wanted step in order, with what each reported. */
  async run(pdf: Uint8Array, options: OutputOptions | undefined, context: StepContext): Promise<FinalOutput> {
    const output: FinalOutput = { pdf, headers: {}, steps: [] };
    if (!options) return output;
    for (const step of this.steps) {
      if (!step.wanted(options)) continue;
      // One reading of the step's time: the receipt's ms, its span (output.<name>) and the stage metric.
      const { value: outcome, ms } = await timed(`output.${step.name}`, { 'quire.bytes_before': output.pdf.byteLength }, () =>
        step.apply(output.pdf, options, context),
      );
      output.steps.push({
        step: step.name,
        ms: Math.round(ms),
        bytesBefore: output.pdf.byteLength,
        bytesAfter: outcome.pdf.byteLength,
        report: outcome.report,
      });
      output.pdf = outcome.pdf;
      Object.assign(output.headers, outcome.headers);
    }
    return output;
  }
}
