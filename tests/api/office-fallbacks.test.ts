// LibreOffice without its network namespace (its own settings still keep links and macros off,
// OFFICE_RESTART_AFTER replaces the process), and no LibreOffice at all (501 office_unavailable).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, startTestServer } from '../helpers/start-app.ts';
import { officeTest } from '../helpers/needs-office.ts';
import { base64 } from '../helpers/office-fixtures.ts';
import { threePages, checkLinksAndMacros, officeRestarts } from '../helpers/office-checks.ts';

officeTest(
  'without a network namespace, LibreOffice’s own settings still keep links and macros off; OFFICE_RESTART_AFTER replaces the process',
  // Two LibreOffice starts, four conversions and their PDFs read back: 80-113 s with three copies
  // of this file at load ~22, 139-166 s with four at load ~25 (measured); its siblings have 300 s.
  { timeout: 300_000 },
  async (t) => {
    const server = await startTestServer(t, { officeIsolateNetwork: false, officeRestartAfter: 2 });
    await checkLinksAndMacros(t, server);
    // Four conversions on one process slot, replaced after every second one.
    assert.equal(await officeRestarts(server), 2);
  },
);

test('without LibreOffice the route answers 501 office_unavailable saying how to install it', async (t) => {
  const server = await startTestServer(t, {}, { office: false });
  const error = await errorOf(await server.request('POST', '/v1/convert/office', { file: base64(threePages), filename: 'report.docx' }));
  assert.deepEqual([error.status, error.code], [501, 'office_unavailable']);
  assert.match(error.detail, /apt-get install libreoffice-writer-nogui/);
  const health = (await (await server.requestWithoutKey('GET', '/health')).json()) as { status: string; office: { available: boolean } };
  assert.equal(health.office.available, false);
});
