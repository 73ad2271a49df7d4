// `npm run mcp` / `npm run -s cli -- mcp`: the MCP server over stdio, for desktop assistants. It is a
// client of a Quire server with QUIRE_API_KEY: QUIRE_URL, else the server running on DATA_DIR
// (its lock names its URL), else one it starts itself on DATA_DIR and stops when the assistant
// hangs up. stdout carries JSON-RPC alone: every log line goes to stderr.

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { pino } from 'pino';
import { createApp } from './app.ts';
import type { Config } from './config.ts';
import { createLogger } from './logger.ts';
import { apiCaller } from './mcp/api-caller.ts';
import { createMcpServer } from './mcp/mcp-server.ts';
import { lockHolder } from './stores/data-dir-lock.ts';
import { SERVICE_VERSION } from './wiring/context.ts';

export const MCP_USAGE = `  mcp                                                  the MCP server on stdio for an assistant: QUIRE_API_KEY, and QUIRE_URL
                                                       (default: the server running on DATA_DIR, else one started on it)`;

export async function mcpCommand(config: Config, usageError: (message: string) => Error): Promise<void> {
  if (!config.quireApiKey) throw usageError('mcp needs QUIRE_API_KEY: the API key its tool calls are made with (npm run -s cli -- keys create ...)');
  const log = createLogger(config.logLevel, pino.destination(2));
  let baseUrl = config.quireUrl || (await runningServer(config.dataDir));
  let started: Awaited<ReturnType<typeof createApp>> | undefined;
  if (!baseUrl) {
    // No server on this data folder: start one here, on a free port of this machine only.
    started = await createApp({ ...config, host: '127.0.0.1', port: 0 }, { log });
    baseUrl = await started.listen(0);
    log.info({ url: baseUrl, data_dir: config.dataDir }, 'mcp: started a server on the data folder');
  }
  const server = createMcpServer({
    api: apiCaller(baseUrl, config.quireApiKey),
    inlineMaxBytes: config.mcpInlineMaxBytes,
    version: SERVICE_VERSION,
    onError: (error, tool) => log.error({ err: error, tool }, 'mcp tool call failed'),
  });
  const transport = new StdioServerTransport();
  const stopped = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    // An assistant that ends us with a signal still gets the started server (and its Chromium) closed.
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.connect(transport);
  log.info({ url: baseUrl }, 'mcp: serving on stdio');
  await stopped;
  await server.close();
  await started?.close();
}

/** How long to wait for a server still starting on DATA_DIR (another assistant's `npm run mcp` may have just started it). */
const STARTING_SERVER_WAIT_MS = 120_000;

/** The URL of the server that holds DATA_DIR's lock, if one runs (waiting for one that is starting to name it). */
async function runningServer(dataDir: string): Promise<string | undefined> {
  const deadline = Date.now() + STARTING_SERVER_WAIT_MS;
  for (;;) {
    const holder = await lockHolder(dataDir);
    if (holder?.role !== 'server') return undefined;
    if (holder.url) return holder.url;
    if (Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
