// What an assistant may do through /mcp is exactly what its key may do through /v1: another key's
// template and document are not found, a private URL is refused by the network guard (and never
// reached), an oversized input meets the API's limit, the plan's allowance is metered, and no tool
// reaches the admin API.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer } from '../helpers/start-app.ts';
import { startRecordingServer } from '../helpers/canary.ts';
import { call, connect, embeddedPdf, factsOf, httpTransport, LETTER_TEMPLATE, problemOf } from '../helpers/mcp.ts';
import { inspectPdf } from '../helpers/pdf.ts';
import { writePlansFile } from '../helpers/test-plans.ts';

test('MCP security: another key’s things, a private URL, an oversized input, the allowance, no admin tool', { timeout: 240_000 }, async (t) => {
  const plansFile = await writePlansFile(t, [{ id: 'tiny', name: 'Tiny', monthly_documents: 1, retention: 0, batch_max_items: 0 }]);
  const server = await startTestServer(t, { plansFile });
  const owner = await connect(t, httpTransport(server, server.key.key));
  const other = await server.createKey('business', { name: 'other' });
  const intruder = await connect(t, httpTransport(server, other.key));

  await t.test('another key’s template and document: not found, not listed', async () => {
    const created = await server.request('POST', '/v1/templates', LETTER_TEMPLATE);
    const { template_id } = (await created.json()) as { template_id: string };
    const rendered = factsOf(await call(owner, 'render_template', { template_id, data: { signer: { name: 'Ada' } } }));
    const documentId = String(rendered.document_id);
    assert.equal(problemOf(await call(intruder, 'get_template', { template_id })).code, 'template_not_found');
    assert.equal(problemOf(await call(intruder, 'render_template', { template_id, data: {} })).code, 'template_not_found');
    assert.equal(
      problemOf(await call(intruder, 'transform_pdf', { document_id: documentId, steps: [{ op: 'rotate', angle: 90 }] })).code,
      'document_not_found',
    );
    assert.equal(problemOf(await call(intruder, 'inspect_pdf', { document_id: documentId })).code, 'document_not_found');
    for (const uri of [`quire://documents/${documentId}`, `quire://templates/${template_id}`])
      await assert.rejects(intruder.readResource({ uri }), (error: unknown) => error instanceof McpError && /not/i.test(error.message));
    const listed = (await intruder.listResources()).resources.map((resource) => resource.uri);
    assert.ok(!listed.some((uri) => uri.includes(template_id) || uri.includes(documentId)), 'nothing of the owner listed');
    assert.equal(((await owner.readResource({ uri: `quire://documents/${documentId}` })).contents[0] as { mimeType: string }).mimeType, 'application/pdf');
  });

  await t.test('a private URL is refused by the guard and never reached', async (t) => {
    const canary = await startRecordingServer('127.0.0.1');
    t.after(() => canary.close());
    const refused = problemOf(await call(owner, 'render_pdf', { url: `${canary.url}/secret` }));
    assert.equal(refused.code, 'url_blocked');
    assert.equal(refused.status, 400);
    assert.equal(canary.connections, 0);
  });

  await t.test('an input past the API’s limit: 413 payload_too_large, as on /v1', async () => {
    const refused = problemOf(await call(owner, 'render_pdf', { html: `<p>${'x'.repeat(5 * 1024 * 1024)}</p>` }));
    assert.equal(refused.code, 'payload_too_large');
    assert.equal(refused.status, 413);
  });

  await t.test('the plan is metered: a plan that keeps nothing renders unstored, then its allowance is used up', async () => {
    const tiny = await connect(t, httpTransport(server, (await server.createKey('tiny')).key));
    const first = await call(tiny, 'render_pdf', { html: '<p>Only one</p>' });
    assert.equal(factsOf(first).document_id, undefined, 'retention 0: nothing stored');
    assert.match((await inspectPdf(embeddedPdf(first))).text, /Only one/);
    assert.equal(factsOf(first).usage, '1');
    const second = problemOf(await call(tiny, 'render_pdf', { html: '<p>One too many</p>' }));
    assert.equal(second.code, 'quota_exceeded');
    assert.equal(second.status, 402);
  });

  await t.test('no tool reaches the admin API or another key', async () => {
    const tools = (await owner.listTools()).tools;
    for (const tool of tools) assert.doesNotMatch(`${tool.name} ${tool.description}`, /\/admin\/|admin token|key_id/, tool.name);
    const schemaText = JSON.stringify(tools.map((tool) => tool.inputSchema));
    assert.doesNotMatch(schemaText, /"key_id"|"owner_key_id"/);
  });
});
