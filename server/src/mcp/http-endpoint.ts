// POST /mcp: the MCP server over Streamable HTTP (stateless: one server and transport per request).
// The API key is checked by the same middleware as /v1 before anything of MCP runs (401 with our
// {detail, code}); each tool call is then a /v1 request with that key over loopback to this very
// server, so it meets the API's limits, guard, metering and receipts on the one code path.

import type { Request, RequestHandler } from 'express';
import express from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ApiError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { type BodyLimit, PDF_AND_ATTACHMENTS_BODY } from '../http/body-limits.ts';
import { bearerToken } from '../http/middleware/auth.ts';
import { jsonBody } from '../http/middleware/json-body.ts';
import { apiCaller } from './api-caller.ts';
import { createMcpServer } from './mcp-server.ts';

export const MCP_PATH = '/mcp';

/** The largest /v1 body a tool forwards (a PDF with attachments, or OFFICE_MAX_UPLOAD_BYTES of office files) and 1 MB of JSON-RPC around it. */
function mcpBodyLimit(officeMaxUploadBytes: number): BodyLimit {
  return {
    bytes: Math.max(PDF_AND_ATTACHMENTS_BODY.bytes, officeMaxUploadBytes) + 1024 * 1024,
    reason: 'the largest /v1 body a tool forwards (a PDF of at most 100 MB with attachments, or the office upload limit) plus 1 MB of JSON-RPC',
  };
}

export interface McpEndpointOptions {
  /** The api_key middleware of /v1. */
  auth: RequestHandler;
  inlineMaxBytes: number;
  /** OFFICE_MAX_UPLOAD_BYTES: convert_office forwards up to this much. */
  officeMaxUploadBytes: number;
  version: string;
  log: Logger;
}

export function mcpEndpoint({ auth, inlineMaxBytes, officeMaxUploadBytes, version, log }: McpEndpointOptions): express.Router {
  const router = express.Router();
  router.all(MCP_PATH, auth);
  router.post(MCP_PATH, jsonBody(mcpBodyLimit(officeMaxUploadBytes)), async (req, res) => {
    // JSON-RPC is JSON: anything else is refused as every JSON endpoint refuses it, before MCP.
    if (!req.is('application/json')) throw new ApiError('invalid_request', 'the request body must be JSON-RPC, sent with Content-Type: application/json');
    const server = createMcpServer({
      api: apiCaller(loopbackUrl(req), bearerToken(req)!),
      inlineMaxBytes,
      version,
      onError: (error, tool) => log.error({ err: error, tool, request_id: res.getHeader('X-Request-Id') }, 'mcp tool call failed'),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // Stateless: no session to open a stream on (GET) or end (DELETE).
  router.all(MCP_PATH, (req, _res, next) =>
    next(new ApiError('method_not_allowed', `${req.method} is not allowed on ${MCP_PATH}; use POST`, { Allow: 'POST' })),
  );
  return router;
}

/** This server as the request reached it: the socket's own address and port (never a client-supplied Host). */
function loopbackUrl(req: Request): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}
