// Stored documents over HTTP: store: true and auto_store, the headers that name the copy, the same
// bytes back, listing newest first with cursor paging, deletion, scoping to the key, zero
// retention, and a store that fails (not charged, nothing listed).
// test-lane: own-server (reads its DATA_DIR and restarts on it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bearer, errorOf, oneInstanceOnly, startTestServer, twoInstances, type IssuedKey, type TestServer } from '../helpers/start-app.ts';
import { planWithRetention, writePlansFile } from '../helpers/test-plans.ts';
import { pdfInfo } from '../helpers/pdf-cli.ts';

const LOAD = { wait_until: 'load' };

interface DocumentJson {
  id: string;
  filename: string | null;
  size: number;
  created_at: string;
  expires_at: string;
  source: string;
  batch_id?: string;
}

interface DocumentPage {
  data: DocumentJson[];
  next_cursor: string | null;
}

async function renderStored(
  server: TestServer,
  body: Record<string, unknown>,
  key?: IssuedKey,
): Promise<{ response: Response; bytes: Buffer; id: string | null }> {
  const response = await server.render({ options: LOAD, ...body }, key ? bearer(key) : undefined);
  const bytes = Buffer.from(await response.arrayBuffer());
  assert.equal(response.status, 200, bytes.subarray(0, 300).toString());
  return { response, bytes, id: response.headers.get('x-document-id') };
}

async function listDocuments(server: TestServer, query = '', key?: IssuedKey): Promise<DocumentPage> {
  const response = await server.request('GET', `/v1/documents${query}`, undefined, key ? bearer(key) : {});
  assert.equal(response.status, 200);
  return (await response.json()) as DocumentPage;
}

async function usedBy(server: TestServer, keyId: string): Promise<number> {
  return ((await (await server.admin('GET', `/admin/v1/keys/${keyId}`)).json()) as { usage: { used: number } }).usage.used;
}

async function filesOf(server: TestServer, keyId: string): Promise<string[]> {
  return (await readdir(path.join(server.dataDir, 'documents', keyId)).catch(() => [] as string[])).sort();
}

test('stored documents: keep, list, fetch and delete, scoped to the key', { timeout: 120_000 }, async (t) => {
  const plansFile = await writePlansFile(t, [planWithRetention('nostore', 0)]);
  const server = await startTestServer(t, { plansFile }, {}, { plan: 'starter' });

  await t.test('store: true answers the PDF with X-Document-Id and Location, and GET returns the same bytes', async () => {
    const before = Date.now();
    const { response, bytes, id } = await renderStored(server, { html: '<p>keep me</p>', store: true, filename: 'Résumé 2026.pdf' });
    assert.match(id ?? '', /^doc_[A-Za-z0-9]{16}$/);
    assert.equal(response.headers.get('location'), `/v1/documents/${id}`);
    assert.equal(response.headers.get('x-service-usage'), '1', 'a stored render is one document');
    const fetched = await server.request('GET', response.headers.get('location')!);
    assert.equal(fetched.status, 200);
    assert.equal(fetched.headers.get('content-type'), 'application/pdf');
    assert.equal(fetched.headers.get('content-disposition'), `inline; filename="R_sum_ 2026.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%202026.pdf`);
    assert.ok(Buffer.from(await fetched.arrayBuffer()).equals(bytes), 'the same bytes');
    const [listed] = (await listDocuments(server)).data;
    assert.deepEqual(
      { ...listed!, created_at: undefined, expires_at: undefined },
      // The page count as pdfinfo reads it from the same bytes.
      {
        id,
        filename: 'Résumé 2026.pdf',
        size: bytes.length,
        pages: Number(pdfInfo(bytes).Pages),
        source: 'render',
        created_at: undefined,
        expires_at: undefined,
      },
    );
    const created = Date.parse(listed!.created_at);
    assert.ok(created >= before - 1000 && created <= Date.now() + 1000);
    assert.equal(Date.parse(listed!.expires_at) - created, 30 * 86_400_000, 'the starter plan keeps documents 30 days');
    // The two-instance lane keeps documents in PostgreSQL, not in DATA_DIR.
    if (!twoInstances) {
      assert.deepEqual(await filesOf(server, server.key.id), [`${id}.json`, `${id}.pdf`]);
      assert.ok((await readFile(path.join(server.dataDir, 'documents', server.key.id, `${id}.pdf`))).equals(bytes), 'the bytes are on disk');
    }
  });

  await t.test('without store nothing is kept, and the response names no document', async () => {
    const before = (await listDocuments(server)).data.length;
    const { response, id } = await renderStored(server, { html: '<p>not kept</p>' });
    assert.equal(id, null);
    assert.equal(response.headers.get('location'), null);
    assert.equal((await listDocuments(server)).data.length, before);
  });

  await t.test('a document without a filename is listed with filename null and fetched without Content-Disposition', async () => {
    const { id } = await renderStored(server, { html: '<p>anonymous</p>', store: true });
    const fetched = await server.request('GET', `/v1/documents/${id}`);
    assert.equal(fetched.headers.get('content-disposition'), null);
    assert.equal((await listDocuments(server)).data.find((document) => document.id === id)?.filename, null);
  });

  await t.test('DELETE answers 204, removes the bytes from disk at once, and later GET and DELETE answer 404', async () => {
    const { id } = await renderStored(server, { html: '<p>delete me</p>', store: true });
    assert.equal((await server.request('DELETE', `/v1/documents/${id}`)).status, 204);
    assert.ok(!(await filesOf(server, server.key.id)).some((name) => name.startsWith(id!)), 'no file of it is left');
    for (const method of ['GET', 'DELETE']) {
      const error = await errorOf(await server.request(method, `/v1/documents/${id}`));
      assert.deepEqual([error.status, error.code], [404, 'document_not_found'], method);
    }
    assert.ok(!(await listDocuments(server)).data.some((document) => document.id === id));
  });

  await t.test('another key’s document, or an unknown id, answers 404 document_not_found; another key lists nothing of ours', async () => {
    const other = await server.createKey('starter');
    const { id } = await renderStored(server, { html: '<p>mine</p>', store: true });
    for (const method of ['GET', 'DELETE']) {
      const error = await errorOf(await server.request(method, `/v1/documents/${id}`, undefined, bearer(other)));
      assert.deepEqual([error.status, error.code], [404, 'document_not_found'], method);
    }
    for (const unknown of ['doc_0000000000000000', 'not-an-id', '..%2F..%2Fkeys.json']) {
      assert.equal((await errorOf(await server.request('GET', `/v1/documents/${unknown}`))).code, 'document_not_found', unknown);
    }
    assert.deepEqual(await listDocuments(server, '', other), { data: [], next_cursor: null });
    assert.equal((await server.request('GET', `/v1/documents/${id}`)).status, 200, 'still there for its owner');
  });

  await t.test('GET /v1/documents lists newest first in pages of limit, following next_cursor to the end', async () => {
    const key = await server.createKey('starter');
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push((await renderStored(server, { html: `<p>doc ${n}</p>`, store: true }, key)).id!);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: DocumentPage = await listDocuments(server, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
      assert.ok(page.data.length <= 2);
      seen.push(...page.data.map((document) => document.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...ids].reverse());
    assert.equal((await listDocuments(server, '', key)).data.length, 5, 'the default page holds 20');
  });

  await t.test('limit outside 1..100 and a cursor that was never issued answer 400 naming the field', async () => {
    for (const [query, pattern] of [
      ['?limit=0', /^limit must be a whole number from 1 to 100$/],
      ['?limit=101', /^limit must be/],
      ['?limit=ten', /^limit must be/],
      ['?limit=1.5', /^limit must be/],
      ['?cursor=bogus', /^cursor is not valid/],
    ] as const) {
      const error = await errorOf(await server.request('GET', `/v1/documents${query}`));
      assert.deepEqual([error.status, error.code], [400, 'invalid_request'], query);
      assert.match(error.detail, pattern, query);
    }
  });

  await t.test('a template render can be stored too', async () => {
    const template = (await (await server.request('POST', '/v1/templates', { name: 'stored', html: '<p>{{x}}</p>' })).json()) as { template_id: string };
    const { id } = await renderStored(server, { template_id: template.template_id, data: { x: 'kept' }, store: true });
    assert.equal((await server.request('GET', `/v1/documents/${id}`)).status, 200);
  });

  await t.test('store: true on a plan with zero retention is 422 storage_unavailable, not rendered and not charged', async () => {
    const key = await server.createKey('nostore');
    const rendersBefore = server.app.renderer.stats().rendersTotal;
    const error = await errorOf(await server.render({ html: '<p>x</p>', store: true, options: LOAD }, bearer(key)));
    assert.deepEqual([error.status, error.code], [422, 'storage_unavailable']);
    assert.match(error.detail, /Nostore plan keeps no documents/);
    assert.equal(server.app.renderer.stats().rendersTotal, rendersBefore);
    assert.equal(await usedBy(server, key.id), 0);
    const { id } = await renderStored(server, { html: '<p>x</p>', store: false }, key);
    assert.equal(id, null, 'store: false still renders');
  });

  await t.test(
    'a copy that cannot be written fails the render with 500, uncharged, and nothing is listed',
    oneInstanceOnly('blocks a DATA_DIR folder'),
    async () => {
      const key = await server.createKey('starter');
      // A file where the key's document folder should be: every write of it fails.
      await writeFile(path.join(server.dataDir, 'documents', key.id), 'in the way');
      const error = await errorOf(await server.render({ html: '<p>x</p>', store: true, options: LOAD }, bearer(key)));
      assert.deepEqual([error.status, error.code], [500, 'internal_error']);
      assert.equal(await usedBy(server, key.id), 0);
      assert.deepEqual((await listDocuments(server, '', key)).data, []);
    },
  );
});

test('auto_store keeps every render unless store: false says otherwise; on a zero-retention plan it keeps nothing, without error', {
  timeout: 120_000,
}, async (t) => {
  const plansFile = await writePlansFile(t, [planWithRetention('nostore', 0)]);
  const server = await startTestServer(t, { plansFile });
  const auto = await server.createKey('starter', { auto_store: true });

  const stored = await renderStored(server, { html: '<p>auto</p>' }, auto);
  assert.match(stored.id ?? '', /^doc_/);
  assert.equal(stored.response.headers.get('location'), `/v1/documents/${stored.id}`);
  const declined = await renderStored(server, { html: '<p>declined</p>', store: false }, auto);
  assert.equal(declined.id, null);
  assert.deepEqual(
    (await listDocuments(server, '', auto)).data.map((document) => document.id),
    [stored.id],
  );

  const autoWithoutRetention = await server.createKey('nostore', { auto_store: true });
  const plain = await renderStored(server, { html: '<p>nothing kept</p>' }, autoWithoutRetention);
  assert.equal(plain.id, null);
  assert.equal(plain.response.headers.get('x-service-usage'), '1');
  assert.deepEqual((await listDocuments(server, '', autoWithoutRetention)).data, []);
  assert.equal(
    (await errorOf(await server.render({ html: '<p>x</p>', store: true, options: LOAD }, bearer(autoWithoutRetention)))).code,
    'storage_unavailable',
    'an explicit store is still refused',
  );

  // auto_store is read per request: switching it off stops storing from the next render.
  assert.equal((await server.admin('PATCH', `/admin/v1/keys/${auto.id}`, { auto_store: false })).status, 200);
  assert.equal((await renderStored(server, { html: '<p>off</p>' }, auto)).id, null);
});

test('stored documents survive a restart: listed, fetched, and deleted afterwards', { timeout: 120_000 }, async (t) => {
  const first = await startTestServer(t);
  const kept = await renderStored(first, { html: '<p>across restarts</p>', store: true, filename: 'a.pdf' });
  const listed = await listDocuments(first);
  await first.app.close();
  const second = await startTestServer(t, { dataDir: first.dataDir });
  assert.deepEqual(await listDocuments(second, '', first.key), listed);
  const fetched = await second.request('GET', `/v1/documents/${kept.id}`, undefined, bearer(first.key));
  assert.ok(Buffer.from(await fetched.arrayBuffer()).equals(kept.bytes));
  assert.equal((await second.request('DELETE', `/v1/documents/${kept.id}`, undefined, bearer(first.key))).status, 204);
});
