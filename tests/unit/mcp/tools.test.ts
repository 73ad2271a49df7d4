// The MCP tool table (server/src/mcp/): every input schema is a JSON Schema object made from the
// API's zod schema, charged tools say so, and get_template's placeholders come from the same
// parse tree the renderer expands.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TOOLS, toolList } from '../../../server/src/mcp/mcp-server.ts';
import { placeholdersOf } from '../../../server/src/mcp/placeholders.ts';
import { renderRequestSchema } from '../../../server/src/http/schemas/render.ts';
import { z } from 'zod';

test('every tool lists an object schema; render_pdf’s is the API’s own request schema', () => {
  for (const tool of toolList()) assert.equal(tool.inputSchema.type, 'object', tool.name);
  const listed = toolList().find((tool) => tool.name === 'render_pdf')!.inputSchema as { properties: Record<string, unknown> };
  const api = z.toJSONSchema(renderRequestSchema, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, unknown> };
  assert.deepEqual(listed.properties, api.properties);
});

test('a charged tool says so in its description, a read-only one does not', () => {
  const charged = ['render_pdf', 'render_template', 'convert_office', 'transform_pdf', 'sign_pdf'];
  for (const tool of TOOLS) {
    if (charged.includes(tool.name)) assert.match(tool.description, /Charged/, tool.name);
    if (tool.readOnly) assert.doesNotMatch(tool.description, /Charged:/, tool.name);
  }
  assert.match(TOOLS.find((tool) => tool.name === 'read_einvoice')!.description, /charged as one document/);
});

test('placeholders: values, raw values and sections once each, with the sections they sit in', () => {
  assert.deepEqual(placeholdersOf('{{a.b}} {{{html}}} {{#items}}{{name}}{{^done}}!{{/done}}{{/items}} {{a.b}}'), [
    { path: 'a.b', kind: 'value' },
    { path: 'html', kind: 'raw' },
    { path: 'items', kind: 'section' },
    { path: 'name', kind: 'value', within: ['items'] },
    { path: 'done', kind: 'inverted', within: ['items'] },
  ]);
  assert.deepEqual(placeholdersOf('{{#open}} never closed'), []);
});
