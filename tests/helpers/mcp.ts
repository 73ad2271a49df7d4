// The MCP tests' client side (tests/api/mcp-*.test.ts): the SDK's own client over Streamable HTTP
// or stdio, the readers of a tool result (its facts, its PDF), and the flow the "done when"
// names: list the tools, render a template with data, split the result, validate an e-invoice,
// read a receipt, each PDF read back for its page count and text.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { inspectPdf } from './pdf.ts';
import { REPO_ROOT } from './server-process.ts';
import type { TestServer } from './start-app.ts';

type Hook = { after: (fn: () => Promise<void>) => void };

/** A connected client; closed when the test ends. */
export async function connect(t: Hook, transport: Transport): Promise<Client> {
  const client = new Client({ name: 'quire-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

/** The SDK's Streamable HTTP client on the server's /mcp, with `key` as the bearer. */
export function httpTransport(server: TestServer, key: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
}

/** A tool call's result, typed. */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The facts (structured content) of a successful call; fails with the tool error otherwise. */
export function factsOf(result: CallToolResult): Record<string, unknown> {
  assert.ok(!result.isError, `tool error: ${JSON.stringify(result.structuredContent ?? result.content)}`);
  return result.structuredContent as Record<string, unknown>;
}

/** The {code, status} of a tool error. */
export function problemOf(result: CallToolResult): { code: string; detail: string; status: number } {
  assert.equal(result.isError, true, `expected a tool error, got ${JSON.stringify(result.content).slice(0, 300)}`);
  const text = result.content.find((part) => part.type === 'text');
  assert.ok(text && text.type === 'text');
  return JSON.parse(text.text) as { code: string; detail: string; status: number };
}

/** The PDF embedded in a result. */
export function embeddedPdf(result: CallToolResult): Uint8Array {
  const part = result.content.find((item) => item.type === 'resource');
  assert.ok(part && part.type === 'resource' && 'blob' in part.resource, 'an embedded PDF');
  assert.equal(part.resource.mimeType, 'application/pdf');
  return new Uint8Array(Buffer.from(part.resource.blob as string, 'base64'));
}

/** A resource read back as PDF bytes. */
export async function readPdfResource(client: Client, uri: string): Promise<Uint8Array> {
  const read = await client.readResource({ uri });
  const content = read.contents[0]!;
  assert.equal(content.mimeType, 'application/pdf');
  return new Uint8Array(Buffer.from((content as { blob: string }).blob, 'base64'));
}

export const LETTER_TEMPLATE = {
  name: 'Letterhead',
  html:
    '<style>section{break-after:page}</style><h1>ACME letterhead</h1>' +
    '{{#paragraphs}}<section><p>{{text}}</p></section>{{/paragraphs}}<p>Regards, {{signer.name}}</p>',
  sample_data: { paragraphs: [{ text: 'Hello' }], signer: { name: 'Ada' } },
};

/**
 * The flow, over whichever transport the client uses: tools listed, a template rendered
 * with data (3 pages), the result split into stored parts read back as resources, an e-invoice
 * made and validated, the render's receipt read.
 */
export async function toolFlow(client: Client, server: TestServer, key: string): Promise<void> {
  const tools = (await client.listTools()).tools;
  const names = tools.map((tool) => tool.name);
  for (const name of ['render_pdf', 'render_template', 'list_templates', 'get_template', 'convert_office', 'inspect_pdf', 'transform_pdf'])
    assert.ok(names.includes(name), `${name} listed`);
  for (const name of ['make_einvoice', 'validate_einvoice', 'read_einvoice', 'sign_pdf', 'get_receipt']) assert.ok(names.includes(name), `${name} listed`);
  const render = tools.find((tool) => tool.name === 'render_template')!;
  assert.match(render.description ?? '', /Charged/, 'a charged tool says so');
  assert.doesNotMatch(tools.find((tool) => tool.name === 'inspect_pdf')!.description ?? '', /Charged:/);
  // The schema is the API's own: PdfOptions' fields with their descriptions.
  const options = (render.inputSchema.properties as Record<string, { properties?: Record<string, unknown> }>).options;
  assert.ok(options?.properties?.format && options.properties.margin, 'options from the API schema');

  const created = await fetch(`${server.url}/v1/templates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(LETTER_TEMPLATE),
  });
  assert.equal(created.status, 201);
  const { template_id } = (await created.json()) as { template_id: string };
  const template = factsOf(await call(client, 'get_template', { template_id }));
  assert.deepEqual(
    (template.placeholders as { path: string }[]).map((p) => p.path),
    ['paragraphs', 'text', 'signer.name'],
  );

  const data = { paragraphs: [{ text: 'First page text' }, { text: 'Second page text' }], signer: { name: 'Grace Hopper' } };
  const rendered = await call(client, 'render_template', { template_id, data, filename: 'letter.pdf' });
  const facts = factsOf(rendered);
  const pdf = await inspectPdf(embeddedPdf(rendered));
  assert.equal(pdf.pages.length, 3);
  assert.equal(facts.pages, 3);
  assert.equal(facts.bytes, embeddedPdf(rendered).byteLength);
  assert.match(pdf.pages[1]!.text, /Second page text/);
  assert.match(pdf.pages[2]!.text, /Regards, Grace Hopper/);
  assert.match(String(facts.document_id), /^doc_/, 'stored, so it can be linked and read again');

  const split = await call(client, 'transform_pdf', { document_id: facts.document_id, steps: [{ op: 'split', every: 1 }] });
  factsOf(split);
  const links = split.content.filter((part) => part.type === 'resource_link');
  assert.equal(links.length, 3);
  const second = await inspectPdf(await readPdfResource(client, (links[1] as { uri: string }).uri));
  assert.equal(second.pages.length, 1);
  assert.match(second.text, /Second page text/);

  const invoice = JSON.parse(await readFile(path.join(REPO_ROOT, 'docs/examples/einvoice-simple.json'), 'utf8'));
  const made = await call(client, 'make_einvoice', { format: 'xrechnung-cii', invoice });
  assert.ok(!made.isError, JSON.stringify(made.content).slice(0, 400));
  const xml = made.content.find((part) => part.type === 'resource');
  assert.ok(xml && xml.type === 'resource' && 'text' in xml.resource);
  const verdict = factsOf(await call(client, 'validate_einvoice', { xml: xml.resource.text }));
  assert.equal(verdict.valid, true);
  assert.equal(verdict.profile, 'XRechnung');
  assert.equal(verdict.invoice, undefined, 'a validation answers the verdict, not the invoice');
  const broken = factsOf(await call(client, 'validate_einvoice', { xml: (xml.resource.text as string).replace('RE-2026-0042', '') }));
  assert.equal(broken.valid, false);

  const receipt = factsOf(await call(client, 'get_receipt', { receipt_id: facts.receipt }));
  assert.equal(receipt.status, 'succeeded');
  assert.equal(receipt.kind, 'pdf');
}
