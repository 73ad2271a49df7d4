// Builds the OpenAPI 3.1 document from the operation list: the same zod schemas that validate
// requests become its JSON Schemas (zod's own toJSONSchema, draft 2020-12, which 3.1 uses).

import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../errors.ts';
import type { Operation, ResponseSpec } from './operation.ts';

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** docs/api.md#versioning: the interface description's version, independent of the server's. */
export const API_VERSION = '1.0.0';

/** How both versions are shown to a person: "API 1.0.0 · Quire 0.1.0". */
export function versionsLabel(serverVersion: string): string {
  return `API ${API_VERSION} · Quire ${serverVersion}`;
}

export function buildOpenApi(operations: readonly Operation[], serverVersion: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const path = op.path.replace(/[:*](\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][op.method] = {
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      operationId: `${op.method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
      security: op.auth === 'none' ? [] : [{ [op.auth === 'admin' ? 'adminToken' : 'apiKey']: [] }],
      parameters: [...pathParameters(op.path), ...queryParameters(op.query)],
      ...(op.body ? { requestBody: { required: op.bodyOptional !== true, content: { 'application/json': { schema: jsonSchema(op.body) } } } } : {}),
      ...(op.bodies
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(Object.entries(op.bodies).map(([type, schema]) => [type, { schema: jsonSchema(schema) }])),
            },
          }
        : {}),
      ...(op.rawBody ? { requestBody: { required: true, content: { [op.rawBody]: { schema: { type: 'string', format: 'binary' } } } } } : {}),
      responses: { ...successResponses(op.responses), ...errorResponses(op.method === 'get' ? op.errors : [...op.errors, 'insufficient_storage']) },
      ...op.extensions,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quire PDF rendering service',
      license: { name: 'MIT', identifier: 'MIT' },
      version: API_VERSION,
      'x-server-version': serverVersion,
      // Two versions with two meanings (docs/api.md#versioning): labelled where /docs shows them, so 1.0.0 beside /health's 0.1.0 reads as no contradiction.
      description:
        `**${versionsLabel(serverVersion)}**: the interface's version (info.version), then the server software's (as \`GET /health\` gives them: api_version, version).\n\n` +
        'Self-hosted HTML/URL/template to PDF rendering on a real Chromium. Errors are always `{detail, code}`; ' +
        'every response carries X-Request-Id. Render responses carry X-Service-Usage, X-Service-Limit and X-Service-Plan.',
    },
    servers: [{ url: '/' }],
    tags: tagsOf(operations),
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: sk_live_...' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The admin token (ADMIN_TOKEN or DATA_DIR/admin-token).' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['detail', 'code'],
          properties: {
            detail: { type: 'string' },
            code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
            // einvoice_invalid only: each fatal rule the e-invoice fails.
            rules: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'detail', 'location'],
                properties: { id: { type: 'string' }, detail: { type: 'string' }, location: { type: 'string' } },
              },
            },
            // element_invalid only: the <quire-...> element, its line in the document, the attribute ("content": its text).
            element: { type: 'string' },
            line: { type: 'integer' },
            attribute: { type: 'string' },
          },
        },
      },
    },
    paths,
  };
}

function jsonSchema(schema: z.ZodType): unknown {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

function successResponses(responses: Record<number, ResponseSpec>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(responses)) {
    const content =
      spec.body === 'pdf'
        ? { 'application/pdf': { schema: { type: 'string', format: 'binary' } } }
        : spec.body === 'sse'
          ? { 'text/event-stream': { schema: { type: 'string' } } }
          : spec.body === 'image'
            ? Object.fromEntries(['image/png', 'image/jpeg', 'image/webp'].map((type) => [type, { schema: { type: 'string', format: 'binary' } }]))
            : spec.body === 'text'
              ? { 'text/plain': { schema: { type: 'string' } } }
              : spec.body === 'html'
                ? { 'text/html': { schema: { type: 'string' } } }
                : spec.body === 'xml'
                  ? { 'application/xml': { schema: { type: 'string' } } }
                  : spec.body
                    ? { 'application/json': { schema: jsonSchema(spec.body) } }
                    : undefined;
    const headers = spec.headers
      ? Object.fromEntries(Object.entries(spec.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]))
      : undefined;
    out[status] = { description: spec.description, ...(content ? { content } : {}), ...(headers ? { headers } : {}) };
  }
  return out;
}

/** Every call that may write answers 507 insufficient_storage when the disk is full, with nothing of it kept. */
function errorResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, 'internal_error' as const]) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [status, { description: `Error: ${list.join(', ')}`, content: { 'application/json': { schema: ERROR_REF } } }]),
  );
}

function pathParameters(path: string): unknown[] {
  return [...path.matchAll(/[:*](\w+)/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } }));
}

function queryParameters(query: z.ZodType | undefined): unknown[] {
  if (!query) return [];
  const schema = jsonSchema(query) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: property,
  }));
}

/**
 * The document's tag list, which is the order /docs shows its groups in: the public API (what a
 * key calls) first, then the admin's operations, never interleaved.
 */
function tagsOf(operations: readonly Operation[]): { name: string; description?: string }[] {
  const names = [...new Set(operations.map((op) => op.tag))];
  const isAdmin = (name: string) => name.startsWith('Admin');
  return [...names.filter((name) => !isAdmin(name)), ...names.filter(isAdmin)].map((name) =>
    isAdmin(name) ? { name, description: 'Admin API: the admin token, not an API key.' } : { name },
  );
}
