// The headless server: load config, create the app, listen, and shut down cleanly on signals.
// main.ts loads this module once it has checked the Node version.

import { ConfigError, helpText, loadConfig } from './config.ts';
import { createApp } from './app.ts';
import { createLogger } from './logger.ts';
import { ChromiumNotFoundError } from './render/chromium-path.ts';
import { DataDirLockedError } from './stores/data-dir-lock.ts';
import { StoreReadError } from './stores/durable-file.ts';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(helpText());
    return;
  }
  const config = loadConfig(process.env, argv);
  const log = createLogger(config.logLevel);
  const app = await createApp(config, { log });
  const url = await app.listen();
  log.info({ url, data_dir: config.dataDir }, 'listening');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight renders');
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  // One clear line for the operator, never a stack trace, for the errors we expect at start-up.
  if (error instanceof ConfigError || error instanceof ChromiumNotFoundError || error instanceof DataDirLockedError || error instanceof StoreReadError) {
    console.error(`quire: ${error.message}`);
  } else {
    console.error(`quire: could not start: ${(error as Error)?.message ?? error}`);
  }
  process.exit(1);
});
