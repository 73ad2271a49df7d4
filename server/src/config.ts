// The settings table and the one frozen Config built from it.
// This is the only module that reads process.env or argv: everything else receives
// what it needs as arguments. Each setting has one name in three spellings:
// DATA_DIR (env), --data-dir (flag), config.dataDir. The settings themselves are declared by
// group in settings/ (server, render, office, output, pdf input, storage, background, playground, telemetry, mcp).

import path from 'node:path';

import { ConfigError, type Setting } from './settings/parsers.ts';
import { serverSettings } from './settings/server.ts';
import { renderSettings } from './settings/render.ts';
import { officeSettings } from './settings/office.ts';
import { outputSettings } from './settings/output.ts';
import { pdfInputSettings } from './settings/pdf-input.ts';
import { storageSettings } from './settings/storage.ts';
import { backgroundSettings } from './settings/background.ts';
import { playgroundSettings } from './settings/playground.ts';
import { telemetrySettings } from './settings/telemetry.ts';
import { mcpSettings } from './settings/mcp.ts';

export { ConfigError, type TrustProxy } from './settings/parsers.ts';

/**
 * The one table in effect: each group (settings/*.ts) declares its own settings, merged here in
 * the order --help prints them. A new setting goes in its group's file; a new group is added here.
 */
export const SETTINGS = {
  ...serverSettings,
  ...renderSettings,
  ...officeSettings,
  ...outputSettings,
  ...pdfInputSettings,
  ...storageSettings,
  ...backgroundSettings,
  ...playgroundSettings,
  ...telemetrySettings,
  ...mcpSettings,
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
