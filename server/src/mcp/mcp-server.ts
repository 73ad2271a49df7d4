// One MCP server (the SDK's low-level Server) over an ApiCaller: the tools, the key's templates
// and documents as resources, and the prompts. The same server answers over Streamable HTTP
// (http-endpoint.ts, one per request) and over stdio (cli-mcp.ts, one per process).

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiCaller } from './api-caller.ts';
import { getPrompt, LETTERHEAD_PROMPT } from './prompts.ts';
import { listResources, readResource, RESOURCE_TEMPLATES } from './resources.ts';
import { problemResult } from './results.ts';
import { inputJsonSchema, type ToolSpec } from './tool-spec.ts';
import { einvoiceTools } from './tools-einvoice.ts';
import { pdfTools } from './tools-pdf.ts';
import { readTools } from './tools-read.ts';
import { renderTools } from './tools-render.ts';

/** Every tool, in the order a client lists them. */
export const TOOLS: readonly ToolSpec[] = [...renderTools, ...readTools, ...pdfTools, ...einvoiceTools];

let listed: Tool[] | undefined;

/** The tools as tools/list answers them (JSON Schemas made once, from the API's zod schemas). */
export function toolList(): Tool[] {
  listed ??= TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool.input),
    annotations: { title: tool.title, readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: tool.name === 'render_pdf' },
  }));
  return listed;
}

export interface McpServerOptions {
  api: ApiCaller;
  inlineMaxBytes: number;
  version: string;
  /** Told when a tool call throws (a bug, or the API unreachable): the caller sees internal_error. */
  onError?: (error: unknown, tool: string) => void;
}

export function createMcpServer({ api, inlineMaxBytes, version, onError }: McpServerOptions): Server {
  const server = new Server(
    { name: 'quire', title: 'Quire PDF service', version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions:
        'Quire renders PDFs (HTML, URLs, Markdown, templates, office files), transforms, signs and inspects them, and makes and checks ' +
        'e-invoices, with your API key: its plan, limits and documents. Tools that are charged say so.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = TOOLS.find((candidate) => candidate.name === request.params.name);
    if (!tool) return problemResult({ status: 404, code: 'not_found', detail: `There is no tool ${request.params.name}.` });
    try {
      return await tool.call(request.params.arguments ?? {}, { api, inlineMaxBytes });
    } catch (error) {
      onError?.(error, tool.name);
      return problemResult({ status: 500, code: 'internal_error', detail: `${tool.name} failed before the API answered.` });
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, (request) => listResources(api, request.params?.cursor));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(api, request.params.uri));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [LETTERHEAD_PROMPT] }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => getPrompt(request.params.name, request.params.arguments));
  return server;
}
