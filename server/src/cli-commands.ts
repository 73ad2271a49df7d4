// The `npm run -s cli -- <command>` commands, loaded by cli.ts once it has checked the Node version:
// key and plan administration on DATA_DIR, and the doctor. One
// process owns DATA_DIR (stores/data-dir-lock.ts): when a server holds it, key commands go through
// its admin API (cli-admin-api.ts); otherwise the CLI takes the lock and uses the same services
// and stores as the server. Output is for scripts: `keys create` and `keys rotate` print the key alone.

import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { ApiError } from './errors.ts';
import { toPlanEntry } from './accounts/plans.ts';
import { openKeysService, type KeysService } from './services/accounts/keys.ts';
import { adminApiClient, AdminApiError, type KeyAdmin, type WireKey } from './cli-admin-api.ts';
import { DataDirLockedError, lockDataDir, lockHolder } from './stores/data-dir-lock.ts';
import { findDamagedFiles, quarantine } from './stores/doctor.ts';
import { StoreReadError } from './stores/durable-file.ts';
import { RECEIPT_MODES, type ReceiptMode } from './stores/keys.ts';
import { openAccountStores } from './stores/open-stores.ts';
import { openDatabase } from './stores/pg/database.ts';
import { importFiles } from './stores/import-files.ts';
import { CERTIFICATES_USAGE, certificatesCommand } from './cli-certificates.ts';
import { MCP_USAGE, mcpCommand } from './cli-mcp.ts';

const USAGE = `Usage: npm run -s cli -- <command> [options]

  keys create --name NAME --plan PLAN [--auto-store] [--receipts stored|all|off]   issue a key; prints the key alone
  keys list [--json]                                   keys with this month's usage
  keys rotate ID                                       new secret for key ID; prints the key alone
  keys revoke ID                                       the key stops working
  plans list [--json]                                  the plans in force
  doctor                                               list damaged store files in DATA_DIR (exit 1 if any)
  doctor --quarantine FILE                             move one damaged file (as listed) into DATA_DIR/quarantine/
  import --from DATA_DIR                               copy an embedded store (keys, usage, templates with versions and
                                                       assets, documents, batches) into DATABASE_URL; resumable and
                                                       idempotent: run it again after an interruption
${CERTIFICATES_USAGE}
${MCP_USAGE}

Settings come from the environment (DATA_DIR, PLANS_FILE, DATABASE_URL, ADMIN_TOKEN) or --data-dir / --plans-file / --database-url.
With DATABASE_URL, key commands write to PostgreSQL directly (running instances see them on their next request).
Otherwise, with a server running on DATA_DIR, key commands call its admin API (token: ADMIN_TOKEN or DATA_DIR/admin-token).
(-s keeps npm's own "> quire cli" banner off stdout.)`;

class UsageError extends Error {}

async function main(argv: readonly string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      'auto-store': { type: 'boolean' },
      receipts: { type: 'string' },
      json: { type: 'boolean' },
      quarantine: { type: 'string' },
      'data-dir': { type: 'string' },
      'plans-file': { type: 'string' },
      'database-url': { type: 'string' },
      from: { type: 'string' },
      p12: { type: 'string' },
      key: { type: 'string' },
      cert: { type: 'string' },
      'password-env': { type: 'string' },
      owner: { type: 'string' },
      'new-key-file': { type: 'string' },
      'token-key-label': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) {
    console.log(USAGE);
    return;
  }
  const settingFlags = (['data-dir', 'plans-file', 'database-url'] as const).flatMap((flag) => (values[flag] !== undefined ? [`--${flag}`, values[flag]] : []));
  const config = loadConfig(process.env, settingFlags);
  if (positionals.join(' ') === 'mcp') return mcpCommand(config, (message) => new UsageError(message));
  if (positionals[0] === 'import') return importCommand(config.databaseUrl, values.from, positionals.slice(1));
  const [noun, verb, id, ...rest] = positionals;
  if (noun === 'doctor') return doctor(config.dataDir, values.quarantine, verb);
  if (noun === 'certificates' && rest.length === 0) return certificatesCommand(config, verb, id, values, (message) => new UsageError(message));
  if (rest.length > 0) throw new UsageError(`unexpected ${rest.join(' ')}`);
  const command = `${noun} ${verb ?? ''}`.trim();
  if (!['keys create', 'keys list', 'keys rotate', 'keys revoke', 'plans list'].includes(command)) throw new UsageError(`unknown command "${command}"`);
  await withKeyAdmin(config, async (keys) => {
    switch (command) {
      case 'keys create': {
        if (!values.name || !values.plan) throw new UsageError('keys create needs --name and --plan');
        const receipts = values.receipts ?? 'stored';
        if (!isReceiptMode(receipts)) throw new UsageError(`--receipts must be one of ${RECEIPT_MODES.join(', ')}`);
        console.log((await keys.create({ name: values.name, plan: values.plan, autoStore: values['auto-store'] ?? false, receipts })).key);
        return;
      }
      case 'keys list':
        return listKeys(await keys.list(), values.json ?? false);
      case 'keys rotate':
        console.log((await keys.rotate(required(id, 'keys rotate needs the key id'))).key);
        return;
      case 'keys revoke':
        await keys.revoke(required(id, 'keys revoke needs the key id'));
        console.error(`revoked ${id}`);
        return;
      case 'plans list': {
        const plans = await keys.plans();
        if (values.json) {
          console.log(JSON.stringify(plans, null, 2));
          return;
        }
        printTable(
          ['id', 'name', 'monthly_documents', 'retention', 'batch_max_items'],
          plans.map((plan) => [plan.id, plan.name, String(plan.monthly_documents), String(plan.retention), String(plan.batch_max_items ?? 0)]),
        );
      }
    }
  });
}

/**
 * Where key commands run. With DATABASE_URL: on PostgreSQL directly, which is safe beside any
 * number of running instances (they read keys from the database on every request; there is no
 * DATA_DIR lock on keys then). With the files: through a running server's admin API (it owns
 * DATA_DIR), or on the files under the lock when none runs.
 */
async function withKeyAdmin(config: Config, work: (keys: KeyAdmin) => Promise<void>): Promise<void> {
  if (config.databaseUrl) return withStores(config, work);
  const holder = await lockHolder(config.dataDir);
  if (holder?.role === 'server' && holder.url) return work(await adminApiClient(holder.url, config.dataDir, config.adminToken));
  // No server (or a server still starting, or another CLI): take the lock; a live holder refuses.
  const lock = await lockDataDir(config.dataDir, 'cli');
  try {
    await withStores(config, work);
  } finally {
    await lock.release();
  }
}

/** Key commands on the stores themselves (files under the lock, or PostgreSQL). */
async function withStores(config: Config, work: (keys: KeyAdmin) => Promise<void>): Promise<void> {
  const stores = await openAccountStores({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const { keys } = await openKeysService({ store: stores.keys, meter: stores.usage, plansFile: config.plansFile });
    await work(localKeyAdmin(keys));
  } finally {
    await stores.close();
  }
}

function localKeyAdmin(keys: KeysService): KeyAdmin {
  return {
    create: (request) => keys.create({ name: request.name, planId: request.plan, autoStore: request.autoStore, receipts: request.receipts }),
    list: async () =>
      (await keys.list()).map((key) => ({
        id: key.id,
        name: key.name,
        plan: key.planId,
        auto_store: key.autoStore,
        receipts: key.receipts,
        created_at: key.createdAt,
        usage: { month: key.usage.month, used: key.usage.used, limit: key.usage.limit },
      })),
    rotate: (id) => keys.rotate(id),
    revoke: (id) => keys.revoke(id),
    plans: async () => keys.plans().map(toPlanEntry),
  };
}

/** Lists damaged files (exit 1 when there are any), or moves the one named by --quarantine aside. */
async function doctor(dataDir: string, quarantineFile: string | undefined, extra: string | undefined): Promise<void> {
  if (extra !== undefined) throw new UsageError(`unexpected ${extra}`);
  if (quarantineFile !== undefined) {
    // Moving a file a running server uses would change the data under it: stop it first.
    const lock = await lockDataDir(dataDir, 'cli');
    try {
      console.log(`moved ${quarantineFile} to ${await quarantine(dataDir, quarantineFile)}`);
    } finally {
      await lock.release();
    }
    return;
  }
  const damaged = await findDamagedFiles(dataDir);
  if (damaged.length === 0) {
    console.log(`no damaged files in ${dataDir}`);
    return;
  }
  for (const entry of damaged) console.log(`${entry.file}\t${entry.problem}`);
  console.error(`${damaged.length} damaged file(s); after checking one, move it aside with: npm run -s cli -- doctor --quarantine FILE`);
  process.exitCode = 1;
}

/** `import --from DATA_DIR`: copies an embedded store into DATABASE_URL's PostgreSQL (stores/import-files.ts). */
async function importCommand(databaseUrl: string, from: string | undefined, rest: string[]): Promise<void> {
  if (rest.length > 0) throw new UsageError(`unexpected ${rest.join(' ')}`);
  if (!from) throw new UsageError('import needs --from DATA_DIR (the folder of the embedded store to copy)');
  if (!databaseUrl) throw new UsageError('import copies into PostgreSQL: set DATABASE_URL or --database-url');
  // The copy is of a store nobody changes meanwhile: a server still running on it refuses the import.
  const lock = await lockDataDir(path.resolve(from), 'cli');
  try {
    const database = await openDatabase(databaseUrl);
    try {
      await importFiles(path.resolve(from), database, (line) => console.error(`import: ${line}`));
      console.error('import: done (run it again at any time: what is already there is kept)');
    } finally {
      await database.close();
    }
  } finally {
    await lock.release();
  }
}

function listKeys(list: WireKey[], json: boolean): void {
  if (json) {
    console.log(JSON.stringify(list, null, 2));
    return;
  }
  printTable(
    ['id', 'name', 'plan', 'auto_store', 'month', 'used', 'limit', 'created_at'],
    list.map((key) => [
      key.id,
      key.name,
      key.plan,
      String(key.auto_store),
      key.usage?.month ?? '',
      String(key.usage?.used ?? 'damaged'),
      String(key.usage?.limit ?? ''),
      key.created_at,
    ]),
  );
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  for (const row of [header, ...rows])
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    );
}

function required(value: string | undefined, message: string): string {
  if (!value) throw new UsageError(message);
  return value;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    console.error(`quire: ${(error as Error).message}\n\n${USAGE}`);
  } else if (
    error instanceof ApiError ||
    error instanceof ConfigError ||
    error instanceof AdminApiError ||
    error instanceof DataDirLockedError ||
    error instanceof StoreReadError
  ) {
    console.error(`quire: ${error.message}`);
  } else {
    console.error(`quire: ${(error as Error)?.message ?? error}`);
  }
  process.exitCode = 1;
});

function isReceiptMode(text: string): text is ReceiptMode {
  return (RECEIPT_MODES as readonly string[]).includes(text);
}
