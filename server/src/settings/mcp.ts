// MCP settings: the /mcp endpoint, and how `npm run mcp` (stdio) finds a server and its key.
// One part of the settings table config.ts merges into SETTINGS (and prints for --help).

import { boolean, integer, setting, text } from './parsers.ts';

export const mcpSettings = {
  mcpEnabled: setting('MCP_ENABLED', true, boolean, 'Serve the MCP server (Streamable HTTP) at /mcp, authenticated with an API key like /v1.'),
  mcpInlineMaxBytes: setting(
    'MCP_INLINE_MAX_BYTES',
    2 * 1024 * 1024,
    integer(0, 100 * 1024 * 1024),
    'A PDF a tool makes up to this size comes back inside the tool result (base64); a larger one as a resource_link to its stored document.',
  ),
  quireUrl: setting('QUIRE_URL', '', text, '`npm run mcp` (stdio): the server to call. Empty: the one running on DATA_DIR, else one started on DATA_DIR.'),
  quireApiKey: setting('QUIRE_API_KEY', '', text, '`npm run mcp` (stdio): the API key every tool call is made with (sk_live_...).'),
} as const;
