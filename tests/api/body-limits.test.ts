// Issue 39 item 4: the body limit of a request that may carry files is sized to let through the
// limits docs/api.md documents: options.attachments at 5 MB each and 10 MB together reach a render
// and a merge as base64 (a third more than the 6 MB any request may be), read back with pdfdetach.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startTestServer } from '../helpers/start-app.ts';
import { detach } from '../helpers/attached-files.ts';

const FIVE_MB = 5 * 1024 * 1024;

test('inline attachments at the documented 5 MB each and 10 MB together reach a render and a merge', async (t) => {
  const server = await startTestServer(t);
  const files = [randomBytes(FIVE_MB), randomBytes(FIVE_MB)];
  const attachments = files.map((bytes, i) => ({ filename: `part-${i + 1}.bin`, content: bytes.toString('base64') }));
  const calls: [string, unknown][] = [
    ['/v1/pdf', { html: '<p>With attachments</p>', options: { wait_until: 'load', attachments } }],
    ['/v1/pdf/merge', { sources: [{ html: '<p>Merged</p>', options: { wait_until: 'load' } }], options: { attachments } }],
  ];
  for (const [route, body] of calls) {
    const response = await server.request('POST', route, body);
    assert.equal(response.status, 200, `${route}: ${response.status === 200 ? '' : await response.text()}`);
    const attached = detach(new Uint8Array(await response.arrayBuffer()));
    assert.deepEqual(
      attached.map((file) => [file.name, file.bytes.equals(files[Number(file.name.slice(5, 6)) - 1]!)]).sort(),
      [
        ['part-1.bin', true],
        ['part-2.bin', true],
      ],
      route,
    );
  }
});
