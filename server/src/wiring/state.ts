// Wiring of state: the stores (DATA_DIR files or PostgreSQL), the accounts over them, the admin
// token, and the documents service the output steps and every service store through.

import { generateAdminToken } from '../accounts/keys.ts';
import type { Logger } from '../logger.ts';
import { DocumentsService } from '../services/accounts/documents.ts';
import { openKeysService } from '../services/accounts/keys.ts';
import { loadOrCreateAdminToken } from '../stores/admin-token.ts';
import { openStores } from '../stores/open-stores.ts';
import type { Config } from '../config.ts';
import type { TokenTerminal, Wiring } from './context.ts';

export type State = Awaited<ReturnType<typeof openState>>;

export async function openState({ config, overrides, log }: Wiring) {
  const warn = (details: Record<string, unknown>, message: string) => log.warn(details, message);
  // Where state lives is decided here, once: DATA_DIR files, or PostgreSQL when DATABASE_URL is set.
  const stores = await openStores({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    now: overrides.now,
    warn,
    error: (details, message) => log.error(details, message),
    batchLeaseSeconds: config.batchLeaseSeconds,
  });
  if (stores.kind === 'postgresql')
    log.warn(
      'DATABASE_URL: keys, usage, templates (versions, assets), documents, batches (leased per instance) and admin events are shared through PostgreSQL',
    );
  // Accounts first: a bad PLANS_FILE or data folder stops start-up before Chromium is launched.
  const accounts = await openKeysService({ store: stores.keys, meter: stores.usage, plansFile: config.plansFile, now: overrides.now }).catch(
    async (error: unknown) => {
      await stores.close();
      throw error;
    },
  );
  const adminToken = await adminTokenFor(config, log, overrides.terminal ?? process.stderr);
  for (const key of await accounts.keys.keysOnUnknownPlans()) {
    log.warn({ key_id: key.id, plan: key.planId }, 'key is on a plan that is not configured: its requests get 403 until it is moved to another plan');
  }
  const documents = new DocumentsService({ store: stores.documents, tombstoneSeconds: config.tombstoneDays * 86_400, now: overrides.now });
  return { stores, accounts, adminToken, documents, warn };
}

/**
 * docs/operations.md#keys-and-the-admin-token: ADMIN_TOKEN, else generated on first start into DATA_DIR/admin-token (0600) and printed
 * once. The token goes to the terminal only, never through the logger: logs are collected and
 * kept where a secret must not be (issue 11). Without a terminal the log names the file.
 */
async function adminTokenFor(config: Config, log: Logger, terminal: TokenTerminal): Promise<string> {
  if (config.adminToken) return config.adminToken;
  const { token, file, created } = await loadOrCreateAdminToken(config.dataDir, generateAdminToken);
  if (!created) return token;
  if (terminal.isTTY) {
    terminal.write(`\nquire: generated the admin token (shown only this once; also kept in ${file}):\n\n    ${token}\n\n`);
    log.warn({ file }, 'generated the admin token: printed once to the terminal and kept in the file');
  } else {
    log.warn({ file }, 'generated the admin token: read it from the file (it is not written to the log)');
  }
  return token;
}
