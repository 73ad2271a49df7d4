// The e-invoice rules thread (einvoice/check/rules-pool.ts): a check comes back from the warm
// thread with the same findings as in-process, refusals keep their kind across the thread, and a
// thread lost under a check (a crash, a stall past the time bound, a heap past its bound) is a
// clean RuleCheckLostError, never a hang, with the next check served by a new thread; a check that
// waited behind a stalled one runs again there.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WorkerPool } from '../../../server/src/worker-pool.ts';
import { checkRulesInWorker, MAX_RULE_XML_BYTES, rulesPoolOptions } from '../../../server/src/einvoice/check/rules-pool.ts';
import { RuleCheckLostError } from '../../../server/src/einvoice/check/rule-report.ts';
import { runRuleTask, type RuleTask } from '../../../server/src/einvoice/check/run-rule-task.ts';
import { NotAnInvoiceError } from '../../../server/src/einvoice/read/read-invoice.ts';
import type { Finding } from '../../../server/src/einvoice/rules/rule.ts';
import { XmlRefusedError } from '../../../server/src/einvoice/xml/safe-xml.ts';

const corpus = path.join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'einvoice-corpus');
const VALID = readFileSync(path.join(corpus, 'broken', 'cii-en16931-valid.xml'), 'utf8');
const BROKEN = readFileSync(path.join(corpus, 'broken', 'cii-br-s-09-vat-computed-at-16-percent.xml'), 'utf8');

const lost = (why: 'timeout' | 'stopped') => (error: unknown) => error instanceof RuleCheckLostError && error.why === why;

test('a check on the warm thread finds what the rules find in-process', async () => {
  assert.deepEqual(await checkRulesInWorker(VALID, 'en16931'), []);
  const findings = await checkRulesInWorker(BROKEN, 'xrechnung');
  assert.deepEqual(findings, runRuleTask({ xml: BROKEN, rules: 'xrechnung' }));
  assert.deepEqual([...new Set(findings.filter((f) => f.flag === 'fatal').map((f) => f.id))].sort(), ['BR-CO-17', 'BR-S-09', 'PEPPOL-EN16931-R001']);
});

test('refusals keep their kind across the thread; an XML past the size bound is never posted', async () => {
  await assert.rejects(
    checkRulesInWorker('<!DOCTYPE x [<!ENTITY a "b">]><x/>', 'en16931'),
    (error) => error instanceof XmlRefusedError && error.reason === 'doctype',
  );
  await assert.rejects(checkRulesInWorker('<Order xmlns="urn:x"/>', 'en16931'), NotAnInvoiceError);
  const huge = `<x>${' '.repeat(MAX_RULE_XML_BYTES)}</x>`;
  await assert.rejects(checkRulesInWorker(huge, 'en16931'), (error) => error instanceof XmlRefusedError && error.reason === 'too_large');
});

test('a thread lost under a check is a clean error and the next check gets a new thread', async () => {
  const entry = new URL('../../fixtures/unruly-rules-worker.ts', import.meta.url);
  // A short time bound and a small heap, so the stall and the growth end soon; the bounds' kind is what is tested.
  const pool = new WorkerPool<RuleTask, Finding[]>({ ...rulesPoolOptions(entry), taskTimeoutMs: 2_000, resourceLimits: { maxOldGenerationSizeMb: 64 } });
  const check = (xml: string) => pool.run({ xml, rules: 'en16931' });

  await assert.rejects(check('crash'), lost('stopped'), 'a crash on the thread’s first task fails it, not re-run on the main thread');
  assert.deepEqual(await check(VALID), []);
  await assert.rejects(check('stall'), lost('timeout'));
  assert.deepEqual(await check(VALID), []);
  await assert.rejects(check('grow'), lost('stopped'));
  assert.deepEqual(await check(VALID), []);
});

test('a check queued behind one that stalls runs again on the new thread, not failed with it', async () => {
  const entry = new URL('../../fixtures/unruly-rules-worker.ts', import.meta.url);
  const pool = new WorkerPool<RuleTask, Finding[]>({ ...rulesPoolOptions(entry), taskTimeoutMs: 2_000 });
  // Both posted at once: the second waits behind the stall, and its clock starts only when it is in front.
  const stalled = pool.run({ xml: 'stall', rules: 'en16931' });
  const behind = pool.run({ xml: VALID, rules: 'en16931' });
  await assert.rejects(stalled, lost('timeout'));
  assert.deepEqual(await behind, []);
});
