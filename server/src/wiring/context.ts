// What every wiring module receives: the Config, the test and desktop overrides, the logger.
// The types live here rather than in app.ts so the wiring modules can name them without a cycle.

import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { Resolver } from '../guard/dns-resolver.ts';
import type { PageSourceFactory } from '../render/index.ts';

export const SERVICE_VERSION = '0.1.0';

export interface AppOverrides {
  log?: Logger;
  /** Replaces DNS resolution for the network guard: url check and egress proxy (tests). */
  resolve?: Resolver;
  /** The clock for monthly usage, document retention and record times (tests: month rollover, expiry). */
  now?: () => Date;
  /** The built admin/playground UI (default dist/ui; a packaged desktop app passes its own). */
  uiDir?: string;
  /** Builds the page source renders run on instead of the headless Chromium (the desktop app: Electron's own). */
  pageSource?: PageSourceFactory;
  /** How often the hot folder looks at WATCH_DIR/in (default 1 s; tests go faster). */
  hotFolderIntervalMs?: number;
  /** Where a generated admin token is printed (default: stderr, when it is a terminal). */
  terminal?: TokenTerminal;
  /** Office conversion: false switches it off whatever is installed (tests of the 501 answer). */
  office?: false;
}

/** Where a generated admin token is shown: the process's terminal, when it has one. */
export interface TokenTerminal {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** The start-up inputs each wiring step reads. */
export interface Wiring {
  readonly config: Config;
  readonly overrides: AppOverrides;
  readonly log: Logger;
}
