// options.attachments against a real Chromium, read back with pdfdetach (names and bytes), qpdf's
// JSON (/AF on the catalog, /AFRelationship, /Subtype, /Params with size and MD5) and checked for
// the refusals that come before any charge: too many files, too large, a missing stored document,
// and attachments with encryption. Office conversions take them as multipart parts too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { startTestServer, errorOf, usageOf, type TestServer } from '../helpers/start-app.ts';
import { associatedFiles, detach } from '../helpers/attached-files.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { officeTest } from '../helpers/needs-office.ts';

const CSV = Buffer.from('month,revenue\n2026-10,1200\n2026-11,1350\n');
const BINARY = randomBytes(3000);
const b64 = (bytes: Buffer) => bytes.toString('base64');

async function pdfOf(response: Response): Promise<Uint8Array> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, `expected a PDF, got ${response.status}: ${Buffer.from(bytes.subarray(0, 400)).toString()}`);
  return bytes;
}

async function storedDocument(server: TestServer): Promise<{ id: string; pdf: Uint8Array }> {
  const response = await server.render({ html: '<h1>Signed order</h1>', store: true });
  const id = response.headers.get('x-document-id');
  assert.ok(id);
  return { id, pdf: await pdfOf(response) };
}

test('attachments', async (t) => {
  const server = await startTestServer(t);

  await t.test('POST /v1/pdf embeds every file as an associated file, byte for byte, with its relationship, type and checksum', async () => {
    const stored = await storedDocument(server);
    const response = await server.render({
      html: '<title>Report</title><h1>Monthly report</h1>',
      options: {
        attachments: [
          { filename: 'revenue.csv', content: b64(CSV), mime_type: 'text/csv', relationship: 'Data', description: 'The figures behind the table' },
          { filename: 'blob.bin', content: b64(BINARY) },
          { filename: 'order ü.pdf', document_id: stored.id, relationship: 'Source' },
        ],
      },
    });
    const pdf = await pdfOf(response);
    assert.match((await inspectPdf(pdf)).text, /Monthly report/);
    const files = detach(pdf);
    assert.deepEqual(files.map((file) => file.name).sort(), ['blob.bin', 'order ü.pdf', 'revenue.csv']);
    const byName = new Map(files.map((file) => [file.name, file.bytes]));
    assert.ok(byName.get('revenue.csv')!.equals(CSV));
    assert.ok(byName.get('blob.bin')!.equals(BINARY));
    assert.ok(byName.get('order ü.pdf')!.equals(Buffer.from(stored.pdf)));

    const associated = associatedFiles(pdf);
    assert.equal(associated.length, 3, 'the catalog /AF lists every file');
    const spec = (name: string) => associated.find((file) => file.spec['/UF'] === `u:${name}`)!;
    assert.equal(spec('revenue.csv').spec['/AFRelationship'], '/Data');
    assert.equal(spec('revenue.csv').spec['/Desc'], 'u:The figures behind the table');
    assert.equal(spec('revenue.csv').stream['/Subtype'], '/text/csv');
    assert.equal(spec('blob.bin').spec['/AFRelationship'], '/Unspecified');
    assert.equal(spec('blob.bin').stream['/Subtype'], '/application/octet-stream');
    assert.equal(spec('order ü.pdf').spec['/AFRelationship'], '/Source');
    assert.equal(spec('order ü.pdf').stream['/Subtype'], '/application/pdf');
    assert.equal(spec('order ü.pdf').spec['/F'], 'u:order _.pdf', '/F is the ASCII fallback of the name');
    const params = spec('revenue.csv').stream['/Params'] as Record<string, unknown>;
    assert.equal(params['/Size'], CSV.byteLength);
    assert.equal(params['/CheckSum'], `b:${createHash('md5').update(CSV).digest('hex')}`);
    assert.match(String(params['/ModDate']), /^u:D:\d{14}/);
  });

  await t.test('POST /v1/pdf/merge attaches to the merged document', async () => {
    const response = await server.request('POST', '/v1/pdf/merge', {
      sources: [{ html: '<p>One</p>' }, { html: '<p>Two</p>' }],
      options: { attachments: [{ filename: 'revenue.csv', content: b64(CSV), mime_type: 'text/csv' }] },
    });
    const pdf = await pdfOf(response);
    assert.equal((await inspectPdf(pdf)).pages.length, 2);
    const [file] = detach(pdf);
    assert.equal(file?.name, 'revenue.csv');
    assert.ok(file.bytes.equals(CSV));
    // A source's own attachments would be lost in the merge: refused, naming the merged document's option.
    const refused = await server.request('POST', '/v1/pdf/merge', {
      sources: [{ html: '<p>One</p>', options: { attachments: [{ filename: 'a.csv', content: b64(CSV) }] } }],
    });
    assert.equal(refused.status, 400);
    assert.match(((await refused.json()) as { detail: string }).detail, /sources\[0\]\.options\.attachments is not for a source/);
  });

  await t.test('a batch item carries its own attachments', async () => {
    const response = await server.request('POST', '/v1/pdf/batch', {
      requests: [{ html: '<p>Item</p>', options: { attachments: [{ filename: 'item.csv', content: b64(CSV) }] } }],
    });
    assert.equal(response.status, 200);
    const batch = (await response.json()) as { results: { status: string; document_id: string }[] };
    assert.equal(batch.results[0]?.status, 'succeeded');
    const pdf = await pdfOf(await server.request('GET', `/v1/documents/${batch.results[0]!.document_id}`));
    assert.deepEqual(
      detach(pdf).map((file) => file.name),
      ['item.csv'],
    );
  });

  await t.test('more than 20 files is a 400 naming the field, uncharged', async () => {
    const before = await usageOf(server);
    const attachments = Array.from({ length: 21 }, (_, index) => ({ filename: `f${index}.txt`, content: b64(Buffer.from('x')) }));
    const error = await errorOf(await server.render({ html: '<p>x</p>', options: { attachments } }));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_request');
    assert.match(error.detail, /options\.attachments.*at most 20/);
    assert.equal(await usageOf(server), before);
  });

  await t.test('a file over the body limit is 413, uncharged', async () => {
    const before = await usageOf(server);
    const big = b64(Buffer.alloc(5 * 1024 * 1024 + 1, 1));
    const error = await errorOf(await server.render({ html: '<p>x</p>', options: { attachments: [{ filename: 'big.bin', content: big }] } }));
    assert.equal(error.status, 413);
    assert.equal(error.code, 'payload_too_large');
    assert.equal(await usageOf(server), before);
  });

  await t.test('bad entries are 400s naming the field: repeated names, a path, no content, bad base64, encryption', async () => {
    const before = await usageOf(server);
    const cases: [unknown, RegExp][] = [
      [
        {
          attachments: [
            { filename: 'a.txt', content: 'eA==' },
            { filename: 'a.txt', content: 'eA==' },
          ],
        },
        /attachments.*repeat/,
      ],
      [{ attachments: [{ filename: '../a.txt', content: 'eA==' }] }, /attachments\[0\]\.filename/],
      [{ attachments: [{ filename: 'a.txt' }] }, /attachments\[0\].*exactly one of content and document_id/],
      [{ attachments: [{ filename: 'a.txt', content: 'not base64!' }] }, /attachments\[0\]\.content/],
      [{ attachments: [{ filename: 'a.txt', content: 'eA==', relationship: 'Other' }] }, /attachments\[0\]\.relationship/],
      [
        { attachments: [{ filename: 'a.txt', content: 'eA==' }], encrypt: { owner_password: 'o' } },
        /options\.attachments cannot be combined with options\.encrypt/,
      ],
    ];
    for (const [options, detail] of cases) {
      const error = await errorOf(await server.render({ html: '<p>x</p>', options }));
      assert.equal(error.status, 400, JSON.stringify(options));
      assert.match(error.detail, detail);
    }
    assert.equal(await usageOf(server), before);
  });

  await t.test('a stored document that is not there is 404 naming the field, uncharged', async () => {
    const before = await usageOf(server);
    const error = await errorOf(await server.render({ html: '<p>x</p>', options: { attachments: [{ filename: 'a.pdf', document_id: 'doc_missing' }] } }));
    assert.equal(error.status, 404);
    assert.equal(error.code, 'document_not_found');
    assert.match(error.detail, /options\.attachments\[0\]\.document_id/);
    assert.equal(await usageOf(server), before);
  });
});

officeTest('POST /v1/convert/office takes attachments as multipart parts, described by the attachments field', { timeout: 180_000 }, async (t) => {
  const server = await startTestServer(t);
  const form = new FormData();
  form.set('file', new Blob([Buffer.from('Quarterly letter\n')]), 'letter.txt');
  form.append('attachments', new Blob([CSV]), 'revenue.csv');
  form.append('attachments', new Blob([BINARY]), 'blob.bin');
  form.append('attachments', JSON.stringify([{ filename: 'revenue.csv', mime_type: 'text/csv', relationship: 'Data' }]));
  const response = await fetch(`${server.url}/v1/convert/office`, { method: 'POST', body: form, headers: { authorization: `Bearer ${server.key.key}` } });
  const pdf = await pdfOf(response);
  assert.match((await inspectPdf(pdf)).text, /Quarterly letter/);
  const files = new Map(detach(pdf).map((file) => [file.name, file.bytes]));
  assert.ok(files.get('revenue.csv')?.equals(CSV));
  assert.ok(files.get('blob.bin')?.equals(BINARY));
  const csv = associatedFiles(pdf).find((file) => file.spec['/UF'] === 'u:revenue.csv');
  assert.equal(csv?.spec['/AFRelationship'], '/Data');
  assert.equal(csv?.stream['/Subtype'], '/text/csv');
});
