// The story of reading an e-invoice a business received (docs/api.md#reading-an-e-invoice): take
// the XML or a hybrid PDF (einvoice-source.ts), inspect it (free), or render it readably through
// Quire's default view template or a key's own, as a render: charged, receipted and stored like one
// (the render service does it all; this only decides what it renders).

import { inspectEInvoice, type EInvoiceInspection } from './einvoice-inspect.ts';
import { einvoiceSource, type EInvoiceInput, type EInvoiceOrigin } from './einvoice-source.ts';
import type { Account } from './keys.ts';
import type { PdfInputDeps } from './pdf-input.ts';
import type { RenderService } from './render.ts';

/** The inspection of a sent invoice, with where it was read from. */
export type SourcedInspection = EInvoiceInspection & { source: EInvoiceOrigin };

export interface EInvoiceReadDeps extends PdfInputDeps {
  render: Pick<RenderService, 'render'>;
}

export class EInvoiceReadService {
  constructor(private readonly deps: EInvoiceReadDeps) {}

  /** Syntax, profile, every rule set's report and the invoice as JSON; not charged. */
  async inspect(input: EInvoiceInput, account: Account): Promise<SourcedInspection> {
    const { xml, origin } = await einvoiceSource(input, account, this.deps);
    return { ...inspectEInvoice(xml), source: origin };
  }
}
