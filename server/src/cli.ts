// `npm run -s cli -- <command>`: key and plan administration on DATA_DIR, built on the same
// services and stores as the server (a running server picks the changes up on its next request).
// Output is for scripts: `keys create` and `keys rotate` print the key alone on stdout.

import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { ApiError } from './errors.ts';
import { toPlanEntry } from './accounts/plans.ts';
import { openKeysService, type KeysService } from './services/keys.ts';
import { openStores } from './stores/open-stores.ts';
import { openDatabase } from './stores/pg/database.ts';
import { importFiles } from './stores/import-files.ts';

const USAGE = `Usage: npm run -s cli -- <command> [options]

  keys create --name NAME --plan PLAN [--auto-store]   issue a key; prints the key alone
  keys list [--json]                                   keys with this month's usage
  keys rotate ID                                       new secret for key ID; prints the key alone
  keys revoke ID                                       the key stops working
  plans list [--json]                                  the plans in force
  import --from DATA_DIR                               copy an embedded store (files) into DATABASE_URL;
                                                       resumable: run it again after an interruption

Settings come from the environment (DATA_DIR, PLANS_FILE, DATABASE_URL) or --data-dir / --plans-file / --database-url.
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
      json: { type: 'boolean' },
      'data-dir': { type: 'string' },
      'plans-file': { type: 'string' },
      'database-url': { type: 'string' },
      from: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) {
    console.log(USAGE);
    return;
  }
  const settingFlags = (['data-dir', 'plans-file', 'database-url'] as const).flatMap((flag) => (values[flag] !== undefined ? [`--${flag}`, values[flag]] : []));
  const config = loadConfig(process.env, settingFlags);
  if (positionals[0] === 'import') return importCommand(config.databaseUrl, values.from, positionals.slice(1));
  const stores = await openStores({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const { keys } = await openKeysService({ store: stores.keys, meter: stores.usage, plansFile: config.plansFile });
    await run(keys, values, positionals);
  } finally {
    await stores.close();
  }
}

async function run(keys: KeysService, values: { name?: string; plan?: string; 'auto-store'?: boolean; json?: boolean }, positionals: string[]): Promise<void> {
  const [noun, verb, id, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`unexpected ${rest.join(' ')}`);
  const command = `${noun} ${verb ?? ''}`.trim();
  switch (command) {
    case 'keys create': {
      if (!values.name || !values.plan) throw new UsageError('keys create needs --name and --plan');
      const issued = await keys.create({ name: values.name, planId: values.plan, autoStore: values['auto-store'] ?? false });
      console.log(issued.key);
      return;
    }
    case 'keys list':
      return listKeys(keys, values.json ?? false);
    case 'keys rotate':
      console.log((await keys.rotate(required(id, 'keys rotate needs the key id'))).key);
      return;
    case 'keys revoke':
      await keys.revoke(required(id, 'keys revoke needs the key id'));
      console.error(`revoked ${id}`);
      return;
    case 'plans list': {
      const plans = keys.plans();
      if (values.json) {
        console.log(JSON.stringify(plans.map(toPlanEntry), null, 2));
        return;
      }
      printTable(['id', 'name', 'monthly_documents', 'retention', 'batch_max_items'], plans.map((plan) => [plan.id, plan.name, String(plan.monthlyDocuments), String(plan.retention), String(plan.batchMaxItems)]));
      return;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** `import --from DATA_DIR`: copies an embedded store into DATABASE_URL's PostgreSQL (stores/import-files.ts). */
async function importCommand(databaseUrl: string, from: string | undefined, rest: string[]): Promise<void> {
  if (rest.length > 0) throw new UsageError(`unexpected ${rest.join(' ')}`);
  if (!from) throw new UsageError('import needs --from DATA_DIR (the folder of the embedded store to copy)');
  if (!databaseUrl) throw new UsageError('import copies into PostgreSQL: set DATABASE_URL or --database-url');
  const database = await openDatabase(databaseUrl);
  try {
    await importFiles(path.resolve(from), database, (line) => console.error(`import: ${line}`));
    console.error('import: done (run it again at any time: what is already there is kept)');
  } finally {
    await database.close();
  }
}

async function listKeys(keys: KeysService, json: boolean): Promise<void> {
  const list = await keys.list();
  if (json) {
    const wire = list.map((key) => ({ id: key.id, name: key.name, plan: key.planId, auto_store: key.autoStore, created_at: key.createdAt, usage: { month: key.usage.month, used: key.usage.used, limit: key.usage.limit } }));
    console.log(JSON.stringify(wire, null, 2));
    return;
  }
  printTable(
    ['id', 'name', 'plan', 'auto_store', 'month', 'used', 'limit', 'created_at'],
    list.map((key) => [key.id, key.name, key.planId, String(key.autoStore), key.usage.month, String(key.usage.used), String(key.usage.limit), key.createdAt]),
  );
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
}

function required(value: string | undefined, message: string): string {
  if (!value) throw new UsageError(message);
  return value;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    console.error(`quire: ${(error as Error).message}\n\n${USAGE}`);
  } else if (error instanceof ApiError || error instanceof ConfigError) {
    console.error(`quire: ${error.message}`);
  } else {
    console.error(`quire: ${(error as Error)?.message ?? error}`);
  }
  process.exitCode = 1;
});
