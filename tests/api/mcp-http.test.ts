// The MCP server over Streamable HTTP at /mcp (docs/mcp.md), driven by the SDK's own client: the
// issue's flow with the PDFs read back, a large result as a link to its stored copy, resources and
// the prompt; the key checked before MCP starts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, startTestServer } from '../helpers/start-app.ts';
import { call, connect, factsOf, httpTransport, LETTER_TEMPLATE, readPdfResource, toolFlow } from '../helpers/mcp.ts';
import { inspectPdf } from '../helpers/pdf.ts';

test('over HTTP: list the tools, render a template with data, split it, validate an e-invoice, read the receipt', { timeout: 240_000 }, async (t) => {
  const server = await startTestServer(t);
  const client = await connect(t, httpTransport(server, server.key.key));
  await toolFlow(client, server, server.key.key);
});

test('a PDF past MCP_INLINE_MAX_BYTES comes back as a resource_link to its stored copy; resources and the prompt', { timeout: 240_000 }, async (t) => {
  const server = await startTestServer(t, { mcpInlineMaxBytes: 1000 });
  const client = await connect(t, httpTransport(server, server.key.key));
  const result = await call(client, 'render_pdf', { html: '<h1>Linked, not inlined</h1>' });
  const facts = factsOf(result);
  assert.equal(result.content.filter((part) => part.type === 'resource').length, 0, 'nothing embedded');
  const [link] = result.content.filter((part) => part.type === 'resource_link');
  assert.ok(link && link.type === 'resource_link');
  assert.equal(link.uri, `quire://documents/${facts.document_id}`);
  assert.equal(link.size, facts.bytes);
  const pdf = await inspectPdf(await readPdfResource(client, link.uri));
  assert.equal(pdf.pages.length, 1);
  assert.match(pdf.text, /Linked, not inlined/);

  // store: false is the caller's to say: nothing kept, so the PDF comes inline whatever its size.
  const unstored = await call(client, 'render_pdf', { html: '<p>x</p>', store: false });
  assert.equal(unstored.structuredContent?.document_id, undefined);
  assert.equal(unstored.content.filter((part) => part.type === 'resource').length, 1);

  await server.request('POST', '/v1/templates', LETTER_TEMPLATE);
  const listed = (await client.listResources()).resources.map((resource) => resource.uri);
  assert.ok(listed.some((uri) => uri.startsWith('quire://templates/tpl_')));
  assert.ok(listed.includes(link.uri));
  const templates = (await client.listResourceTemplates()).resourceTemplates.map((entry) => entry.uriTemplate);
  assert.deepEqual(templates, ['quire://templates/{template_id}', 'quire://documents/{document_id}']);

  const prompt = await client.getPrompt({ name: 'letterhead_pdf', arguments: { markdown: '# Offer\n\nDear Ada,' } });
  const text = prompt.messages[0]!.content;
  assert.ok(text.type === 'text' && text.text.includes('# Offer') && text.text.includes('render_template'));
});

test('/mcp without a key, with a bad key or with the admin token: 401 with {detail, code} before any MCP; GET is 405', async (t) => {
  const server = await startTestServer(t);
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  };
  const headers = { accept: 'application/json, text/event-stream' };
  for (const authorization of [undefined, 'Bearer sk_live_notakey', `Bearer ${server.adminToken}`]) {
    const response = await server.requestWithoutKey('POST', '/mcp', initialize, authorization ? { ...headers, authorization } : headers);
    const error = await errorOf(response);
    assert.equal(error.status, 401, String(authorization));
    assert.equal(error.code, 'unauthorized');
  }
  const answered = await server.request('POST', '/mcp', initialize, headers);
  assert.equal(answered.status, 200);
  assert.equal(((await answered.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name, 'quire');
  const get = await server.request('GET', '/mcp', undefined, headers);
  assert.equal((await errorOf(get)).code, 'method_not_allowed');
});
