// Server settings: where it listens and keeps its data, the admin token and plans, what the HTTP layer serves, logging.
// One part of the settings table config.ts merges into SETTINGS (and prints for --help).

import { adminToken, boolean, integer, setting, text, trustProxy, type TrustProxy } from './parsers.ts';

export const serverSettings = {
  host: setting('HOST', '127.0.0.1', text, 'Address to listen on.'),
  port: setting('PORT', 3000, integer(0, 65535), 'Port to listen on (0 picks a free one).'),
  dataDir: setting('DATA_DIR', './data', text, 'Folder for keys, templates, documents and the batch queue.'),
  databaseUrl: setting(
    'DATABASE_URL',
    '',
    text,
    'PostgreSQL connection URL (postgresql://user:password@host/db). Set: keys, usage, templates (versions, assets), documents, batches and admin events live there, shared by every instance that names it (docs/operations.md#several-instances-postgresql). Empty: the files under DATA_DIR.',
  ),
  shutdownTimeoutMs: setting('SHUTDOWN_TIMEOUT_MS', 30_000, integer(0, 600_000), 'How long shutdown waits for in-flight renders.'),
  adminToken: setting('ADMIN_TOKEN', '', adminToken, 'Token for the admin API (Bearer). Default: generated on first start into DATA_DIR/admin-token.'),
  plansFile: setting('PLANS_FILE', '', text, 'JSON array of plans that replace (same id) or add to the built-in free, starter, growth, scale, business.'),
  trustProxy: setting(
    'TRUST_PROXY',
    false as TrustProxy,
    trustProxy,
    'Reverse proxies whose X-Forwarded-For gives the client address (the playground limit): none, a hop count, or a comma list of proxy addresses/CIDRs.',
  ),
  metricsEnabled: setting('METRICS_ENABLED', true, boolean, 'Serve Prometheus metrics at GET /metrics.'),
  docsEnabled: setting('DOCS_ENABLED', true, boolean, 'Serve the OpenAPI document and /docs.'),
  logLevel: setting('LOG_LEVEL', 'info', text, 'fatal, error, warn, info, debug or silent.'),
} as const;
