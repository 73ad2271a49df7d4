// The certificate warning people read in the admin window, receipts and /health: whole days counted
// up (19.2 days left is "20 days", as the admin window counts them) and the date in words with its
// clock (UTC), never an ISO timestamp.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CertificatesService, readableTime } from '../../../../server/src/services/signing/certificates.ts';
import type { CertificateStore } from '../../../../server/src/stores/certificates.ts';

const NOW = new Date('2026-11-27T12:00:00.000Z');
const service = new CertificatesService(
  {} as CertificateStore,
  async () => Buffer.alloc(32),
  () => NOW,
);
const validity = (notAfter: string, notBefore = '2026-01-01T00:00:00.000Z') => ({ notBefore, notAfter });

test('a bound reads as a date in words and a UTC time', () => {
  assert.equal(readableTime('2026-12-17T08:30:00.000Z'), '17 Dec 2026, 08:30 UTC');
  assert.equal(readableTime('not a date'), 'not a date');
});

test('the warning counts part days up and prints no ISO timestamp', () => {
  assert.equal(service.warning(validity('2026-12-17T08:30:00.000Z')), 'expires in 20 days, on 17 Dec 2026, 08:30 UTC');
  assert.equal(service.warning(validity('2026-11-28T06:00:00.000Z')), 'expires in 1 day, on 28 Nov 2026, 06:00 UTC');
  assert.equal(service.warning(validity('2026-11-01T00:00:00.000Z')), 'expired on 1 Nov 2026, 00:00 UTC');
  assert.equal(service.warning(validity('2027-12-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z')), 'not valid before 1 Dec 2026, 00:00 UTC');
  assert.equal(service.warning(validity('2027-12-01T00:00:00.000Z')), undefined);
  for (const warning of ['2026-12-17T08:30:00.000Z', '2026-11-01T00:00:00.000Z'].map((at) => service.warning(validity(at)) ?? '')) {
    assert.doesNotMatch(warning, /\d{4}-\d\d-\d\dT/);
  }
});
