// The settings table and the one frozen Config built from it.
// This is the only module that reads process.env or argv: everything else receives
// what it needs as arguments. Each setting has one name in three spellings:
// DATA_DIR (env), --data-dir (flag), config.dataDir.

import path from 'node:path';

type Parser<T> = (raw: string, name: string) => T;

interface Setting<T> {
  readonly env: string;
  readonly default: T;
  readonly help: string;
  readonly parse: Parser<T>;
}

export class ConfigError extends Error {}

const text: Parser<string> = (raw) => raw;

function integer(min: number, max: number): Parser<number> {
  return (raw, name) => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    }
    return value;
  };
}

const boolean: Parser<boolean> = (raw, name) => {
  const value = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
};

// The admin token must not be mistaken for an API key, and must not be guessable.
const adminToken: Parser<string> = (raw, name) => {
  if (raw.length < 16 || /\s/.test(raw)) throw new ConfigError(`${name} must be at least 16 characters with no spaces`);
  if (raw.startsWith('sk_')) throw new ConfigError(`${name} must not start with sk_ (that is the API key form)`);
  return raw;
};

const list: Parser<readonly string[]> = (raw) =>
  raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);

/**
 * TRUST_PROXY: which peers' X-Forwarded-For is believed (express's "trust proxy"). false: none,
 * the socket's address counts; a number: that many proxy hops in front of us; else a comma list
 * of addresses or CIDRs of the proxies.
 */
export type TrustProxy = false | number | readonly string[];

const trustProxy: Parser<TrustProxy> = (raw, name) => {
  const value = raw.trim().toLowerCase();
  if (['', 'none', 'false', 'off', '0'].includes(value)) return false;
  if (/^\d+$/.test(value)) return integer(1, 32)(value, name);
  const entries = list(value, name);
  for (const entry of entries) {
    if (!/^[0-9a-f.:]+(\/\d{1,3})?$/.test(entry))
      throw new ConfigError(`${name} must be none, a hop count (1 to 32) or a comma list of proxy addresses or CIDRs (got "${raw}")`);
  }
  return entries;
};

function setting<T>(env: string, defaultValue: T, parse: Parser<T>, help: string): Setting<T> {
  return { env, default: defaultValue, parse, help };
}

// Defaults for the renderer come from measurements and the bench
// (docs/decisions.md#two-render-slots-and-a-bounded-queue) on a 2-core machine:
// concurrency above the core count adds latency, not throughput, so 2 slots render while a
// short queue absorbs bursts.
export const SETTINGS = {
  host: setting('HOST', '127.0.0.1', text, 'Address to listen on.'),
  port: setting('PORT', 3000, integer(0, 65535), 'Port to listen on (0 picks a free one).'),
  dataDir: setting('DATA_DIR', './data', text, 'Folder for keys, templates, documents and the batch queue.'),
  databaseUrl: setting(
    'DATABASE_URL',
    '',
    text,
    'PostgreSQL connection URL (postgresql://user:password@host/db). Set: keys, usage, templates (versions, assets), documents, batches and admin events live there, shared by every instance that names it (README: Running several instances). Empty: the files under DATA_DIR.',
  ),
  chromePath: setting('CHROME_PATH', '', text, 'Chromium executable. Default: the one shipped by @sparticuz/chromium, else a system chromium.'),
  fontsDir: setting('FONTS_DIR', '', text, 'Folder of extra font files (ttf, otf, ttc, woff2) made available to every render.'),
  renderConcurrency: setting('RENDER_CONCURRENCY', 2, integer(1, 64), 'Renders that run at once.'),
  renderQueueSize: setting('RENDER_QUEUE_SIZE', 32, integer(0, 10_000), 'Renders that may wait for a free slot; beyond that the answer is 503 renderer_busy.'),
  renderQueueTimeoutMs: setting('RENDER_QUEUE_TIMEOUT_MS', 10_000, integer(0, 600_000), 'Longest wait for a free slot before answering 503 renderer_busy.'),
  browserRecycleAfter: setting('BROWSER_RECYCLE_AFTER', 5_000, integer(0, 10_000_000), 'Relaunch Chromium after this many renders (0: never).'),
  officePath: setting(
    'OFFICE_PATH',
    '',
    text,
    'LibreOffice executable (soffice) for POST /v1/convert/office. Default: soffice on PATH; none found: the route answers 501 office_unavailable.',
  ),
  veraPdfPath: setting(
    'VERAPDF_PATH',
    '',
    text,
    'veraPDF command: when set, every PDF/A output is also validated by it and its verdict joins the conformance report (a FAIL is a 422). Empty: the built-in checker alone.',
  ),
  officePython: setting(
    'OFFICE_PYTHON',
    '',
    text,
    'Python 3 with LibreOffice’s uno module (Debian: python3-uno). Default: LibreOffice’s own python, else /usr/bin/python3.',
  ),
  officeConcurrency: setting('OFFICE_CONCURRENCY', 1, integer(1, 16), 'LibreOffice processes kept warm; each converts one document at a time.'),
  officeRestartAfter: setting('OFFICE_RESTART_AFTER', 200, integer(0, 1_000_000), 'Restart a LibreOffice process after this many conversions (0: never).'),
  officeWarmAtStart: setting(
    'OFFICE_WARM_AT_START',
    true,
    boolean,
    'Start the LibreOffice processes with the server (false: on the first office conversion, which then waits some seconds).',
  ),
  officeIsolateNetwork: setting(
    'OFFICE_ISOLATE_NETWORK',
    true,
    boolean,
    'Run LibreOffice in a network namespace of its own (unshare --user --net: no way out) where the machine allows it; its settings hold links off either way.',
  ),
  officeMaxUploadBytes: setting(
    'OFFICE_MAX_UPLOAD_BYTES',
    25 * 1024 * 1024,
    integer(1024, 1024 * 1024 * 1024),
    'Largest body POST /v1/convert/office reads (all files and fields); beyond it 413 payload_too_large.',
  ),
  shutdownTimeoutMs: setting('SHUTDOWN_TIMEOUT_MS', 30_000, integer(0, 600_000), 'How long shutdown waits for in-flight renders.'),
  allowHosts: setting(
    'ALLOW_HOSTS',
    [] as readonly string[],
    list,
    'Comma list of host, host:port or CIDR that pages may reach although private (on-prem use).',
  ),
  denyHosts: setting('DENY_HOSTS', [] as readonly string[], list, 'Comma list of host, host:port or CIDR that pages may never reach.'),
  networkGuard: setting(
    'NETWORK_GUARD',
    true,
    boolean,
    'on: every browser connection goes through the egress proxy that enforces ALLOW_HOSTS/DENY_HOSTS and the private-address guard. off only for trusted content and benchmarks.',
  ),
  adminToken: setting('ADMIN_TOKEN', '', adminToken, 'Token for the admin API (Bearer). Default: generated on first start into DATA_DIR/admin-token.'),
  retentionSweepSeconds: setting(
    'RETENTION_SWEEP_SECONDS',
    60,
    integer(1, 86_400),
    'How often stored documents past their retention are deleted (also once at start-up).',
  ),
  tombstoneDays: setting(
    'TOMBSTONE_DAYS',
    90,
    integer(1, 3650),
    'Days an expired document still answers 410 document_expired after its bytes are deleted; then 404.',
  ),
  receiptRetentionHours: setting(
    'RECEIPT_RETENTION_HOURS',
    24,
    integer(1, 8760),
    'Hours a render receipt is kept when its render stored no document (a stored one’s receipt lasts as long as the document).',
  ),
  webhookAttempts: setting('WEBHOOK_ATTEMPTS', 5, integer(1, 20), 'Tries to deliver a batch webhook (the first included) before giving up.'),
  webhookRetryBaseMs: setting(
    'WEBHOOK_RETRY_BASE_MS',
    45_000,
    integer(1, 3_600_000),
    'Wait before the second webhook try; each later one waits 4 times longer (45 s, 3, 12, 48 min: about an hour over 5 tries).',
  ),
  webhookTimeoutMs: setting(
    'WEBHOOK_TIMEOUT_MS',
    10_000,
    integer(100, 120_000),
    'Longest a webhook receiver may take to answer in full; then the try counts as failed.',
  ),
  plansFile: setting('PLANS_FILE', '', text, 'JSON array of plans that replace (same id) or add to the built-in free, starter, growth, scale, business.'),
  playgroundEnabled: setting(
    'PLAYGROUND_ENABLED',
    true,
    boolean,
    'Serve the public playground (POST /v1/playground/pdf and /playground): renders with no key.',
  ),
  playgroundRateLimit: setting(
    'PLAYGROUND_RATE_LIMIT',
    10,
    integer(1, 10_000),
    'Playground renders allowed per client address per minute; beyond that: 429 rate_limited.',
  ),
  playgroundConcurrency: setting(
    'PLAYGROUND_CONCURRENCY',
    1,
    integer(1, 64),
    'Render slots the playground may use at once, all callers together; never all RENDER_CONCURRENCY slots when there are two or more.',
  ),
  playgroundMaxTimeoutMs: setting(
    'PLAYGROUND_MAX_TIMEOUT_MS',
    15_000,
    integer(1000, 60_000),
    'Longest a playground render may take: a larger options.timeout_ms is lowered to this.',
  ),
  trustProxy: setting(
    'TRUST_PROXY',
    false as TrustProxy,
    trustProxy,
    'Reverse proxies whose X-Forwarded-For gives the client address (the playground limit): none, a hop count, or a comma list of proxy addresses/CIDRs.',
  ),
  batchQueueItemsPerKey: setting(
    'BATCH_QUEUE_ITEMS_PER_KEY',
    1_000,
    integer(1, 10_000_000),
    'Background batch items one key may have waiting (batches not yet completed); a batch that would go past it: 429 too_many_batches with Retry-After.',
  ),
  batchQueueItems: setting(
    'BATCH_QUEUE_ITEMS',
    20_000,
    integer(1, 100_000_000),
    'Background batch items waiting on the whole server; past it: 503 renderer_busy with Retry-After.',
  ),
  batchQueueBytesPerKey: setting(
    'BATCH_QUEUE_BYTES_PER_KEY',
    64 * 1024 * 1024,
    integer(1024, 2 ** 40),
    'Bytes of stored batch requests one key may have waiting; past it: 429 too_many_batches.',
  ),
  batchQueueBytes: setting(
    'BATCH_QUEUE_BYTES',
    1024 * 1024 * 1024,
    integer(1024, 2 ** 44),
    'Bytes of stored batch requests waiting on the whole server; past it: 503 renderer_busy with Retry-After.',
  ),
  batchLeaseSeconds: setting(
    'BATCH_LEASE_SECONDS',
    15,
    integer(1, 3_600),
    'PostgreSQL: a batch whose instance has not renewed its lease for this long is adopted by another (renewed 3 times as often). Shorter: faster take-over after a crash, more database writes.',
  ),
  dnsTimeoutMs: setting(
    'DNS_TIMEOUT_MS',
    5_000,
    integer(100, 60_000),
    'Longest wait for a DNS answer for the network guard (pages, url, webhooks); answers are cached for their TTL, at most 60 s.',
  ),
  metricsEnabled: setting('METRICS_ENABLED', true, boolean, 'Serve Prometheus metrics at GET /metrics.'),
  docsEnabled: setting('DOCS_ENABLED', true, boolean, 'Serve the OpenAPI document and /docs.'),
  otelEndpoint: setting(
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    '',
    text,
    'OpenTelemetry collector base URL (http://host:4318): traces and metrics go to its /v1/traces and /v1/metrics over OTLP/HTTP; the other OTEL_* variables (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER, OTEL_BSP_*) are read by the SDK. Empty: off, at no cost.',
  ),
  otelMetricIntervalMs: setting('OTEL_METRIC_EXPORT_INTERVAL', 60_000, integer(100, 3_600_000), 'Milliseconds between OTLP metric exports.'),
  watchDir: setting(
    'WATCH_DIR',
    '',
    text,
    'Hot folder: name.json (a render request) or name.html dropped into WATCH_DIR/in becomes WATCH_DIR/out/name.pdf, or WATCH_DIR/failed/name.json with the error; WATCH_DIR/settings.json names the key charged ({"key_id": "key_..."}). Empty: off.',
  ),
  signingKeyFile: setting(
    'SIGNING_KEY_FILE',
    '',
    text,
    'File holding the master key (32 random bytes, base64) that encrypts imported signing keys at rest with AES-256-GCM. Default: DATA_DIR/signing-key, created with mode 0600 on first use.',
  ),
  signingKey: setting(
    'SIGNING_KEY',
    '',
    text,
    'The master key itself (base64 of 32 bytes), instead of SIGNING_KEY_FILE; for secret managers that hand it in the environment.',
  ),
  tsaUrl: setting('TSA_URL', '', text, 'RFC 3161 time-stamping authority for sign level B-T (http or https). Empty: B-T is refused.'),
  tsaCredentials: setting('TSA_CREDENTIALS', '', text, 'user:password for the TSA (HTTP basic authentication), when it asks.'),
  tsaAllowHosts: setting(
    'TSA_ALLOW_HOSTS',
    [] as readonly string[],
    list,
    "Hosts the TSA may be on (comma list, host or host:port); TSA_URL's host must be on it. Separate from the page guard: a TSA on the private network is allowed here only.",
  ),
  tsaTimeoutMs: setting(
    'TSA_TIMEOUT_MS',
    10_000,
    integer(100, 120_000),
    'Longest wait for the TSA; beyond it the signature is not made: 503 timestamp_unavailable, not charged.',
  ),
  pkcs11Module: setting(
    'PKCS11_MODULE',
    '',
    text,
    'PKCS#11 library (.so) of a token that holds signing keys (an HSM, a smart card, SoftHSM2). Empty: no token; certificates carry sealed software keys only.',
  ),
  pkcs11TokenLabel: setting(
    'PKCS11_TOKEN_LABEL',
    '',
    text,
    'The label of the token in PKCS11_MODULE whose keys sign (certificates imported with token_key_label).',
  ),
  pkcs11Pin: setting('PKCS11_PIN', '', text, "The token's user PIN. Set it in the environment, not as a flag (flags show in the process list)."),
  trustStore: setting('TRUST_STORE', '', text, 'File of PEM root certificates POST /v1/pdf/verify trusts. Empty: no chain is reported trusted.'),
  logLevel: setting('LOG_LEVEL', 'info', text, 'fatal, error, warn, info, debug or silent.'),
} as const;

type Settings = typeof SETTINGS;
export type Config = { readonly [K in keyof Settings]: Settings[K]['default'] };

export function flagName(env: string): string {
  return `--${env.toLowerCase().replace(/_/g, '-')}`;
}

/** Builds the Config from environment variables, then CLI flags (flags win). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = []): Config {
  const flags = parseFlags(argv);
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(SETTINGS) as [keyof Settings, Setting<unknown>][]) {
    const fromFlag = flags.get(flagName(spec.env));
    const raw = fromFlag ?? env[spec.env];
    values[key] = raw === undefined || raw === '' ? spec.default : spec.parse(raw, fromFlag !== undefined ? flagName(spec.env) : spec.env);
  }
  const config = values as Config;
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(config.logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, silent (got "${config.logLevel}")`);
  }
  return Object.freeze({
    ...config,
    dataDir: path.resolve(config.dataDir),
    plansFile: config.plansFile && path.resolve(config.plansFile),
    watchDir: config.watchDir && path.resolve(config.watchDir),
    signingKeyFile: config.signingKeyFile && path.resolve(config.signingKeyFile),
    trustStore: config.trustStore && path.resolve(config.trustStore),
  });
}

/** A Config for code that builds the app itself (tests, the desktop shell): defaults plus overrides. */
export function configWith(overrides: Partial<Config>): Config {
  return Object.freeze({ ...loadConfig({}, []), ...overrides });
}

function parseFlags(argv: readonly string[]): Map<string, string> {
  const known = new Set(Object.values(SETTINGS).map((spec) => flagName(spec.env)));
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (!known.has(name)) throw new ConfigError(`unknown option ${name} (see --help)`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new ConfigError(`${name} needs a value`);
    flags.set(name, value);
  }
  return flags;
}

/** The --help text: the same table the parser uses. */
export function helpText(): string {
  const rows = Object.values(SETTINGS).map((spec) => {
    const shown = Array.isArray(spec.default) ? spec.default.join(',') : spec.default === false && spec.env === 'TRUST_PROXY' ? 'none' : String(spec.default);
    return `  ${flagName(spec.env).padEnd(28)} ${spec.env.padEnd(26)} ${spec.help}${shown ? ` (default: ${shown})` : ''}`;
  });
  return ['Usage: npm start -- [options]', '', 'Every option is also an environment variable:', '', ...rows].join('\n');
}
