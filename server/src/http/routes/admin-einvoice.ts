// The admin window's E-invoices screen (docs/api.md#reading-an-e-invoice): admin twins of the keyed
// e-invoice readers (inspect, render), the same operation under /admin/v1 with the admin token.
// Made from the keyed operations themselves, so a reader added or changed there is twinned as it
// is, and the two cannot drift apart. Reading is free and keeps nothing, so no key is needed.

import type { Operation } from '../operation.ts';

const TAG = 'Admin: e-invoices';
/** The readers the screen calls; POST /v1/einvoice (making XML) has no screen and no twin. */
const TWINNED = ['/v1/einvoice/inspect', '/v1/einvoice/render'];

export function adminEInvoiceOperations(keyed: readonly Operation[]): Operation[] {
  return keyed
    .filter((op) => op.auth === 'api_key' && TWINNED.includes(op.path))
    .map((op) => ({
      ...op,
      path: `/admin${op.path}`,
      auth: 'admin',
      tag: TAG,
      summary: `${op.summary} (admin window: with the admin token)`,
      description: `As ${op.method.toUpperCase()} ${op.path}, for the admin window's E-invoices screen, with the admin token. ${op.description ?? ''}`.trim(),
    }));
}
