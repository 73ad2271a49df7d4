// The desktop app's Config: the same settings table as the server (config.ts), read from
// resources/default-config.json, then the user's <userData>/config.json, then environment
// variables prefixed QUIRE_ (QUIRE_PORT: a PORT or DATA_DIR exported for some other program in the
// launching shell must not move the app); each file names settings as their environment variables
// do ({"PORT": 4000}). Always on 127.0.0.1; the configured port, else the one it had last time;
// data in the user-data folder.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, SETTINGS, loadConfig, type Config } from '../server/src/config.ts';
import { choosePort } from './server-host.ts';

export const USER_CONFIG_FILE = 'config.json';
/** <userData>/last-port.json: the port of the previous launch, asked for again at the next. */
export const PORT_FILE = 'last-port.json';
/** The entries of the user-data folder that are Quire's own (moved by data-folder.ts). */
export const OWN_ENTRIES = [USER_CONFIG_FILE, 'data', PORT_FILE] as const;
/** The prefix of the environment variables the desktop app reads (QUIRE_PORT for PORT). */
export const ENV_PREFIX = 'QUIRE_';

export interface DesktopConfigSources {
  /** Settings from resources/default-config.json. */
  defaults: Record<string, string>;
  /** Settings from <userData>/config.json. */
  user: Record<string, string>;
  env: NodeJS.ProcessEnv;
  userDataDir: string;
  /** The port of the previous launch, used when no PORT is configured (a free one if it is taken). */
  rememberedPort?: number;
}

const SETTING_NAMES = new Set<string>(Object.values(SETTINGS).map((setting) => setting.env));

/** Reads a settings file: {} when it does not exist; a ConfigError naming the file when it is wrong. */
export function readSettingsFile(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`${file} cannot be read: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(`${file} must hold a JSON object of settings`);
  const settings: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (name.startsWith('$') || name.startsWith('//')) continue; // "$comment" keys explain the file
    if (!SETTING_NAMES.has(name)) throw new ConfigError(`${file}: unknown setting ${name} (settings are named as their environment variables, e.g. PORT)`);
    settings[name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return settings;
}

/** The settings given as QUIRE_-prefixed environment variables, by their setting name. */
function settingsFromEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const name of SETTING_NAMES) {
    const value = env[`${ENV_PREFIX}${name}`];
    if (value !== undefined && value !== '') settings[name] = value;
  }
  return settings;
}

function mergedSettings(sources: DesktopConfigSources): Record<string, string | undefined> {
  return { ...sources.defaults, ...sources.user, ...settingsFromEnv(sources.env) };
}

/** Whether PORT is set somewhere: then it is used as is, and a taken port is an error rather than another port. */
export function hasConfiguredPort(sources: DesktopConfigSources): boolean {
  const { PORT } = mergedSettings(sources);
  return PORT !== undefined && PORT !== '';
}

/** Merges the sources (later wins), validates them with the server's own parser, and fixes host, port and data folder. */
export function desktopConfig(sources: DesktopConfigSources): Config {
  const settings = mergedSettings(sources);
  let config: Config;
  try {
    config = loadConfig(settings, []);
  } catch (error) {
    // The parser names the setting; from the environment it was spelled with the prefix.
    if (error instanceof ConfigError)
      throw new ConfigError(
        error.message.replace(/^([A-Z_]+) /, (all, name: string) => (settingsFromEnv(sources.env)[name] !== undefined ? `${ENV_PREFIX}${name} ` : all)),
      );
    throw error;
  }
  return Object.freeze({
    ...config,
    // The desktop server is for this machine only.
    host: '127.0.0.1',
    port: choosePort(hasConfiguredPort(sources) ? config.port : sources.rememberedPort),
    dataDir: settings.DATA_DIR ? path.resolve(sources.userDataDir, settings.DATA_DIR) : path.join(sources.userDataDir, 'data'),
    // Relative paths mean the user-data folder: a desktop app has no meaningful working directory.
    plansFile: settings.PLANS_FILE ? path.resolve(sources.userDataDir, settings.PLANS_FILE) : '',
    fontsDir: settings.FONTS_DIR ? path.resolve(sources.userDataDir, settings.FONTS_DIR) : '',
    watchDir: settings.WATCH_DIR ? path.resolve(sources.userDataDir, settings.WATCH_DIR) : '',
  });
}

/** The port the previous launch listened on, if it left one. */
export function readRememberedPort(userDataDir: string): number | undefined {
  try {
    const { port } = JSON.parse(readFileSync(path.join(userDataDir, PORT_FILE), 'utf8')) as { port?: unknown };
    return Number.isInteger(port) && (port as number) > 0 && (port as number) < 65_536 ? (port as number) : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the port for the next launch; a failure only costs the next launch its old port. */
export function rememberPort(userDataDir: string, port: number): void {
  try {
    writeFileSync(path.join(userDataDir, PORT_FILE), `${JSON.stringify({ port })}\n`);
  } catch {
    // The next launch picks a free port and local tools read DATA_DIR/server.json.
  }
}

/**
 * The user-data folder tests ask for (QUIRE_USER_DATA_DIR), honoured only in a development run:
 * an installed app always uses its own folder, whatever the environment says.
 */
export function userDataOverride(isPackaged: boolean, env: NodeJS.ProcessEnv): string | undefined {
  return isPackaged ? undefined : env.QUIRE_USER_DATA_DIR || undefined;
}
