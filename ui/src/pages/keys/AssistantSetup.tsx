// What to paste into an AI assistant's configuration to give it this key through MCP (docs/mcp.md):
// the HTTP endpoint with the key as a header, or the stdio command (npm run mcp) with the key in
// its environment. Shown with the key, folded, the one time the key is visible.

import { CodeTabs } from '../../components/CodeTabs.tsx';

/** The `mcpServers` entries for this server's origin and key (Claude Desktop, VS Code and the like read this shape). */
export function assistantSnippets(origin: string, key: string): { name: string; code: string }[] {
  const http = { mcpServers: { quire: { type: 'http', url: `${origin}/mcp`, headers: { Authorization: `Bearer ${key}` } } } };
  const stdio = {
    mcpServers: { quire: { command: 'npm', args: ['--prefix', '/path/to/quire', 'run', '-s', 'mcp'], env: { QUIRE_API_KEY: key, QUIRE_URL: origin } } },
  };
  return [
    { name: 'HTTP', code: JSON.stringify(http, null, 2) },
    { name: 'stdio', code: JSON.stringify(stdio, null, 2) },
  ];
}

export function AssistantSetup({ apiKey }: { apiKey: string }) {
  return (
    <details className="assistant-setup">
      <summary>Use this key from an AI assistant (MCP)</summary>
      <p className="muted">
        Paste one into the assistant’s MCP configuration. Its tool calls count against this key’s plan like any other call. For stdio, replace /path/to/quire
        with the folder Quire is installed in.
      </p>
      <CodeTabs samples={assistantSnippets(window.location.origin, apiKey)} label="MCP configuration" />
    </details>
  );
}
