// A shutdown step that fails does not stop the others (app.ts close): before, the first step that
// rejected (a LibreOffice profile that could not be removed, issue 40's office-fallbacks hang) left
// the listener, the egress proxy, the stores and the data-folder lock open, and the process hanging.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bearer, startTestServer } from '../helpers/start-app.ts';
import { FakePageSource } from '../helpers/fake-page-source.ts';

/** Pages that render (blank) but whose browser fails to close. */
class FailsToClose extends FakePageSource {
  override async close(): Promise<void> {
    throw new Error('the browser would not close');
  }
}

test('a shutdown step that fails is reported, and the rest still run: the listener, the stores and the data-folder lock close', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-shutdown-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  // The failing server is closed by the test itself: its close rejects by design.
  const first = await startTestServer({ after: () => undefined }, { dataDir }, { pageSource: async () => new FailsToClose() });
  const stored = await first.render({ html: '<p>kept</p>', store: true });
  assert.equal(stored.status, 200);
  const id = stored.headers.get('location')?.split('/').pop();
  await stored.arrayBuffer();
  assert.match(id ?? '', /^doc_/);

  await assert.rejects(first.app.close(), /the browser would not close/);
  await assert.rejects(fetch(`${first.url}/health`), 'the listener is closed');
  // The lock is released and the document was flushed: a new server opens the same data folder.
  const second = await startTestServer(t, { dataDir }, { pageSource: async () => new FakePageSource() });
  const fetched = await second.request('GET', `/v1/documents/${id}`, undefined, bearer(first.key));
  assert.equal(fetched.status, 200);
  assert.equal(fetched.headers.get('content-type'), 'application/pdf');
  await fetched.arrayBuffer();
});
