// PDF/UA-1 on merges and transforms, and the checker free on /v1/pdf/inspect (issue 42): tagged
// sources merge into one structure tree (each under one Document, links still in their Link
// elements), an untagged one is a 422 naming it; transforms keep the tags but Ghostscript's
// compress, refused up front; inspect's checks: ["pdf_ua"] answers the report with pages, uncharged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, startTestServer, usageOf } from '../helpers/start-app.ts';
import { qpdfJson } from '../helpers/pdf-a-tools.ts';
import { LINKS_PAGE, TABLE_PAGE } from '../helpers/ua-pages.ts';
import { assertReadingOrder, assertUaSeen, uaSeen } from '../helpers/ua-tools.ts';

const TWO_PAGES =
  '<!doctype html><html lang="en"><head><title>Two pages</title></head><body><h1>First page</h1><p>One</p>' +
  '<h2 style="break-before:page">Second page</h2><p>Two</p></body></html>';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

async function pdfOf(response: Response): Promise<Uint8Array> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal(response.status, 200, Buffer.from(bytes.subarray(0, 600)).toString());
  assert.match(response.headers.get('x-pdf-ua') ?? '', /failed=0$/);
  return bytes;
}

interface UaCheck {
  passed: boolean;
  checks: number;
  failed: { condition: string; page: number | null; detail: string }[];
  needs_person: { topic: string }[];
}

test('PDF/UA-1 on merges and transforms; the checker on /v1/pdf/inspect', { timeout: 600_000 }, async (t) => {
  const server = await startTestServer(t);
  const tagged = await pdfOf(await server.render({ html: TWO_PAGES, options: { pdf_ua: 'PDF/UA-1' } }));
  const plain = new Uint8Array(await (await server.render({ html: '<p>Not tagged</p>' })).arrayBuffer());

  await t.test('rendered and uploaded tagged sources merge into one structure tree; links keep their Link parents', async () => {
    const sources = [{ html: LINKS_PAGE }, { html: TABLE_PAGE('scope="col"') }, { pdf: b64(tagged) }, { html: LINKS_PAGE }];
    const options = { pdf_ua: 'PDF/UA-1', pdf_a: 'PDF/A-2a', metadata: { title: 'Bundle' }, outline: true };
    const response = await server.request('POST', '/v1/pdf/merge', { sources, options });
    // With its tags kept, a merge can be PDF/A-2a as well (without pdf_ua, 2a on a merge is a 400).
    assert.match(response.headers.get('x-pdf-conformance') ?? '', /^PDF\/A-2a; rules=\d+; failed=0/);
    const merged = await pdfOf(response);
    const seen = uaSeen(merged);
    assertUaSeen(seen, 'en', ['Document', 'Part', 'H1', 'Table', 'Link'], 'merge');
    assertReadingOrder(seen.text, ['Prices', 'Where', 'Item', 'Tea', 'First page', 'Second page', 'Prices', 'Where'], 'merge');
    // One Document whose kids are the four sources' Documents, now Parts; every page its own parent-tree key.
    const { objects } = qpdfJson(merged);
    const values = Object.values(objects).map((object) => object.value ?? {});
    const documents = values.filter((value) => value['/S'] === '/Document');
    assert.equal(documents.length, 1);
    assert.equal((documents[0]!['/K'] as unknown[]).length, 4);
    const keys = values.filter((value) => value['/Type'] === '/Page').map((value) => value['/StructParents']);
    assert.equal(keys.length, 5);
    assert.equal(new Set(keys).size, 5, `distinct StructParents ${JSON.stringify(keys)}`);
  });

  await t.test('an untagged source is a 422 naming it; a page_ranges cut is a 400; neither is charged', async () => {
    const before = await usageOf(server);
    const untagged = await server.request('POST', '/v1/pdf/merge', { sources: [{ pdf: b64(tagged) }, { pdf: b64(plain) }], options: { pdf_ua: 'PDF/UA-1' } });
    const error = await errorOf(untagged);
    assert.equal(error.status, 422);
    assert.equal(error.code, 'accessibility_failed');
    assert.match(error.detail, /^sources\[1\] is not tagged/);
    const cut = await server.request('POST', '/v1/pdf/merge', { sources: [{ pdf: b64(tagged), page_ranges: '2' }], options: { pdf_ua: 'PDF/UA-1' } });
    assert.equal(cut.status, 400);
    assert.match((await errorOf(cut)).detail, /sources\[0\]\.page_ranges .*pdf_ua/);
    assert.equal(await usageOf(server), before);
  });

  await t.test('transforms keep the tags (rotate, reorder, lossless compress); compress with images is a 400 up front', async () => {
    const steps = [
      { op: 'rotate', angle: 90, pages: '1' },
      { op: 'reorder', order: '2, 1' },
      { op: 'compress', mode: 'lossless' },
    ];
    const made = await pdfOf(await server.request('POST', '/v1/pdf/transform', { pdf: b64(tagged), steps, options: { pdf_ua: 'PDF/UA-1' } }));
    assertUaSeen(uaSeen(made), 'en', ['H1', 'H2'], 'transform');
    const before = await usageOf(server);
    const gs = await server.request('POST', '/v1/pdf/transform', { pdf: b64(tagged), steps: [{ op: 'compress' }], options: { pdf_ua: 'PDF/UA-1' } });
    const error = await errorOf(gs);
    assert.equal(error.status, 400);
    assert.match(error.detail, /^steps\[0\] \(compress, mode images\).*lossless/);
    const untagged = await errorOf(
      await server.request('POST', '/v1/pdf/transform', { pdf: b64(plain), steps: [{ op: 'rotate', angle: 90 }], options: { pdf_ua: 'PDF/UA-1' } }),
    );
    assert.equal(untagged.status, 400);
    assert.match(untagged.detail, /no structure tree/);
    assert.equal(await usageOf(server), before);
  });

  await t.test('inspect with checks ["pdf_ua"]: the report with pages, free; without checks no report; an unknown check a 400', async () => {
    // Chromium's own tagged print of a page whose second-page heading skips a level.
    const raw = new Uint8Array(await (await server.render({ html: TWO_PAGES.replace(/h2/g, 'h3'), options: { tagged: true } })).arrayBuffer());
    const before = await usageOf(server);
    const inspect = async (pdf: Uint8Array, checks?: string[]) => server.request('POST', '/v1/pdf/inspect', { pdf: b64(pdf), checks });
    const good = (await (await inspect(tagged, ['pdf_ua'])).json()) as { checks: { pdf_ua: UaCheck } };
    assert.equal(good.checks.pdf_ua.passed, true);
    assert.equal(good.checks.pdf_ua.checks, 30);
    assert.deepEqual(good.checks.pdf_ua.failed, []);
    assert.ok(good.checks.pdf_ua.needs_person.some((entry) => entry.topic === 'reading order'));
    const bad = (await (await inspect(raw, ['pdf_ua'])).json()) as { checks: { pdf_ua: UaCheck } };
    assert.equal(bad.checks.pdf_ua.passed, false);
    const at = (condition: string) => bad.checks.pdf_ua.failed.find((finding) => finding.condition === condition);
    assert.deepEqual(at('14-003'), { condition: '14-003', page: 2, detail: 'H3 follows H1' }, 'the heading found on its page');
    assert.equal(at('06-001')?.page, null, 'a document-level finding has page null');
    const untagged = (await (await inspect(plain, ['pdf_ua'])).json()) as { checks: { pdf_ua: UaCheck } };
    const conditions = untagged.checks.pdf_ua.failed.map((finding) => finding.condition);
    for (const condition of ['UA1:7.1-marked', '06-001', '07-001', '01-005']) assert.ok(conditions.includes(condition), `${condition} in ${conditions}`);
    const none = (await (await inspect(tagged)).json()) as { checks?: unknown; pdf_ua: string | null };
    assert.equal(none.checks, undefined);
    assert.equal(none.pdf_ua, '1');
    assert.equal((await inspect(tagged, ['pdf_a'])).status, 400);
    assert.equal(await usageOf(server), before, 'inspect is free');
  });
});
