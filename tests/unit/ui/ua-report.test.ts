// The admin window's reading of a PDF/UA verdict (lib/ua-report.ts, lib/applied-steps.ts): the
// X-PDF-UA header as a sentence, a 422 accessibility_failed body as a report, and the office
// form's boolean pdf_ua (LibreOffice's export) not mistaken for the checked step.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiFailure } from '../../../ui/src/api/client.ts';
import { appliedSteps } from '../../../ui/src/lib/applied-steps.ts';
import { describeUaHeader, failureUaReport } from '../../../ui/src/lib/ua-report.ts';

test('the X-PDF-UA header reads as a sentence, and its absence as not applied', () => {
  assert.equal(describeUaHeader('PDF/UA-1; checks=30; failed=0'), 'PDF/UA-1: 30 checks, 0 failed');
  assert.equal(describeUaHeader(null), null);
  const [step] = appliedSteps({ pdf_ua: 'PDF/UA-1' }, new Headers({ 'X-PDF-UA': 'PDF/UA-1; checks=30; failed=0' }));
  assert.deepEqual(step, { step: 'pdf_ua', label: 'PDF/UA', applied: true, detail: 'PDF/UA-1: 30 checks, 0 failed' });
  assert.equal(appliedSteps({ pdf_ua: 'PDF/UA-1' }, new Headers())[0]?.applied, false);
  assert.deepEqual(appliedSteps({ pdf_ua: true }, new Headers()), [], 'the office export is not the checked step');
});

test('a 422 accessibility_failed body becomes a report; other failures none', () => {
  const body = {
    code: 'accessibility_failed',
    detail: 'fails',
    level: 'PDF/UA-1',
    checks: 30,
    failed: [{ condition: '14-003', page: null, detail: 'H3 after H1' }],
    needs_person: [{ topic: 'reading order', conditions: ['09-001'], detail: 'order' }],
  };
  const report = failureUaReport(new ApiFailure(422, 'accessibility_failed', 'fails', undefined, undefined, body));
  assert.equal(report?.checks, 30);
  assert.equal(report?.failed[0]?.condition, '14-003');
  assert.equal(report?.needs_person[0]?.topic, 'reading order');
  assert.equal(failureUaReport(new ApiFailure(400, 'invalid_request', 'no', undefined, undefined, { failed: [] })), undefined);
  assert.equal(failureUaReport(new Error('network')), undefined);
});
