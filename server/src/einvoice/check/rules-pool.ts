// Runs the EN 16931 rule sets on a warm worker thread (worker-pool.ts): reading an invoice and
// running its rules takes a few ms, and a large one far longer, which must not stall the event
// loop; a thread started once stays warm, unlike the xmllint process per invoice it replaces.
// Bounded: the XML's size before it is posted, the thread's heap, and each check's time.

import { WorkerPool, type ErrorShape, type WorkerPoolOptions } from '../../worker-pool.ts';
import { NotAnInvoiceError } from '../read/read-invoice.ts';
import type { Finding } from '../rules/rule.ts';
import type { RuleSetName } from '../rules/rule-sets.ts';
import { XmlRefusedError, type XmlRefusalReason } from '../xml/safe-xml.ts';
import { RuleCheckLostError } from './rule-report.ts';
import { runRuleTask, type RuleTask } from './run-rule-task.ts';

/** The largest XML checked: an attachment's own limit (pdf/attachment-options.ts), about 5,000 lines. */
export const MAX_RULE_XML_BYTES = 5 * 1024 * 1024;
/** A check that has not answered by then is stuck (a 5 MB invoice reads and checks in about a second). */
export const RULE_CHECK_TIMEOUT_MS = 20_000;

/** The pool's settings, given its entry (a test gives an entry of its own that crashes or stalls). */
export function rulesPoolOptions(source: URL, bundled: URL = source): WorkerPoolOptions<RuleTask, Finding[]> {
  return {
    threads: 1,
    source,
    bundled,
    runInline: async (task) => runRuleTask(task),
    errorFrom,
    taskTimeoutMs: RULE_CHECK_TIMEOUT_MS,
    lostError: (why, detail) => new RuleCheckLostError(why, detail),
    // The DOM of a 5 MB XML takes about 100 MB; four times that leaves room and still bounds a hostile one.
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  };
}

const pool = new WorkerPool<RuleTask, Finding[]>(
  // In the desktop bundle: dist/electron/einvoice-rules-worker.mjs, built by scripts/build-electron.ts.
  rulesPoolOptions(new URL('./rules-worker.ts', import.meta.url), new URL('./einvoice-rules-worker.mjs', import.meta.url)),
);

/** The findings of a rule set on the XML; throws XmlRefusedError, NotAnInvoiceError or RuleCheckLostError. */
export function checkRulesInWorker(xml: string, rules: RuleSetName): Promise<Finding[]> {
  const bytes = Buffer.byteLength(xml);
  if (bytes > MAX_RULE_XML_BYTES)
    return Promise.reject(new XmlRefusedError('too_large', `The e-invoice XML is ${bytes} bytes; at most ${MAX_RULE_XML_BYTES} are checked.`));
  return pool.run({ xml, rules });
}

function errorFrom(error: ErrorShape): Error {
  // Run inline (no thread could start), the error is the real one.
  if (error instanceof XmlRefusedError || error instanceof NotAnInvoiceError) return error;
  const details = error.details ?? {};
  if (error.name === 'XmlRefusedError') return new XmlRefusedError(details.reason as XmlRefusalReason, error.message);
  if (error.name === 'NotAnInvoiceError') return new NotAnInvoiceError(String(details.rootName));
  return new Error(error.message);
}
