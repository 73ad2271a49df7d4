// The MCP server over Streamable HTTP at /mcp (docs/mcp.md), driven by the SDK's own client: the
// issue's flow with the PDFs read back, a large result as a link to its stored copy, resources and
// the prompt; the key checked before MCP starts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorOf, startTestServer } from '../helpers/start-app.ts';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { call, connect, embeddedPdf, factsOf, httpTransport, LETTER_TEMPLATE, problemOf, readPdfResource, toolFlow } from '../helpers/mcp.ts';
import { REPO_ROOT } from '../helpers/server-process.ts';
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
  const notJson = await errorOf(await server.request('POST', '/mcp', JSON.stringify(initialize), { ...headers, 'content-type': 'text/plain' }));
  assert.deepEqual([notJson.status, notJson.code], [400, 'invalid_request']);
  const broken = await errorOf(await server.request('POST', '/mcp', '{"jsonrpc":', { ...headers, 'content-type': 'application/json' }));
  assert.deepEqual([broken.status, broken.code], [400, 'invalid_json']);
});

test('the other tools: inspect_pdf, read_einvoice as data and as a PDF, sign_pdf with a certificate the key does not have', { timeout: 240_000 }, async (t) => {
  const server = await startTestServer(t);
  const client = await connect(t, httpTransport(server, server.key.key));
  const rendered = factsOf(await call(client, 'render_pdf', { markdown: '# One\n\n<div style="break-after:page"></div>\n\n# Two' }));
  const inspected = factsOf(await call(client, 'inspect_pdf', { document_id: rendered.document_id }));
  assert.equal(inspected.page_count, 2);

  const invoice = JSON.parse(await readFile(path.join(REPO_ROOT, 'docs/examples/einvoice-simple.json'), 'utf8'));
  const made = await call(client, 'make_einvoice', { format: 'en16931-cii', invoice });
  const xml = made.content.find((part) => part.type === 'resource');
  assert.ok(xml && xml.type === 'resource' && 'text' in xml.resource);
  const data = factsOf(await call(client, 'read_einvoice', { xml: xml.resource.text }));
  assert.equal((data.invoice as { number: string }).number, 'RE-2026-0042');
  const drawn = await call(client, 'read_einvoice', { xml: xml.resource.text, view: 'pdf' });
  assert.match((await inspectPdf(embeddedPdf(drawn))).text, /RE-2026-0042/);
  assert.match(String(factsOf(drawn).einvoice_report), /fatal=0/);

  assert.deepEqual(factsOf(await call(client, 'list_certificates', {})).data, []);
  const refused = problemOf(await call(client, 'sign_pdf', { document_id: rendered.document_id, sign: { certificate_id: 'crt_notgranted' } }));
  assert.deepEqual([refused.status, refused.code], [404, 'certificate_not_found']);
});
