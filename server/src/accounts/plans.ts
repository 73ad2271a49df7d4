// Plans: the five built-in defaults of docs/api.md#plans-and-usage, replaced or extended by PLANS_FILE.
// A bad plans file stops start-up with one sentence naming the file, the entry and the field.
// Knows nothing of keys, usage counting or HTTP.

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ConfigError } from '../config.ts';

export interface Plan {
  readonly id: string;
  readonly name: string;
  readonly monthlyDocuments: number;
  /** As configured: 0, or a number with s, m (minutes), h, d or y (365 days). */
  readonly retention: string | 0;
  readonly retentionSeconds: number;
  /** 0: no batch on this plan. */
  readonly batchMaxItems: number;
  /** Interactive renders one key of this plan may have in flight; more wait in the key's own queue. */
  readonly concurrency: number;
}

export type Plans = ReadonlyMap<string, Plan>;

export class PlansFileError extends ConfigError {}

const RETENTION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, y: 365 * 86_400 };
const RETENTION_FORM = /^(0|[1-9]\d{0,5}[smhdy])$/;

/** One rule per field, so every way of getting a field wrong reads the same. */
const FIELD_RULES = {
  id: 'must be 1 to 32 characters: lowercase letters, digits, - or _, starting with a letter or digit',
  name: 'must be a non-empty string of at most 64 characters',
  monthly_documents: 'must be a whole number from 0 to 1000000000',
  retention: 'must be 0 or a string such as "30d" (a number with s, m, h, d or y)',
  batch_max_items: 'must be a whole number from 0 to 10000',
  concurrency: 'must be a whole number from 1 to 1000 (optional; default: the built-in plan of that id, else 4)',
} as const;

const planFileEntrySchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/),
  name: z.string().min(1).max(64),
  monthly_documents: z.int().min(0).max(1_000_000_000),
  retention: z.union([z.literal(0), z.string().regex(RETENTION_FORM)]),
  batch_max_items: z.int().min(0).max(10_000),
  concurrency: z.int().min(1).max(1000).optional(),
});

export type PlanFileEntry = z.input<typeof planFileEntrySchema>;

/**
 * docs/api.md#plans-and-usage: free 100 / 1d / 0; starter 1000 / 30d / 10; growth 10000 / 1y / 50; scale 50000 / 2y / 100; business 250000 / 2y / 250.
 * concurrency (issue 11): renders in flight per key. A free key gets one, so free keys cannot take
 * the slots of paying ones; the larger plans get more than the default two slots because a key
 * alone on the server should use all of them (waiting renders are served round-robin anyway).
 */
export const DEFAULT_PLAN_ENTRIES: readonly PlanFileEntry[] = [
  { id: 'free', name: 'Free', monthly_documents: 100, retention: '1d', batch_max_items: 0, concurrency: 1 },
  { id: 'starter', name: 'Starter', monthly_documents: 1_000, retention: '30d', batch_max_items: 10, concurrency: 2 },
  { id: 'growth', name: 'Growth', monthly_documents: 10_000, retention: '1y', batch_max_items: 50, concurrency: 4 },
  { id: 'scale', name: 'Scale', monthly_documents: 50_000, retention: '2y', batch_max_items: 100, concurrency: 8 },
  { id: 'business', name: 'Business', monthly_documents: 250_000, retention: '2y', batch_max_items: 250, concurrency: 16 },
];

/**
 * A plans-file entry without concurrency keeps the built-in plan's of the same id, else this:
 * a plans file written before the field existed must not start throttling its keys to one.
 */
const DEFAULT_CONCURRENCY = 4;

/** The built-in plans, overridden and extended by the plans file when one is named. */
export async function loadPlans(plansFile: string): Promise<Plans> {
  const plans = new Map(DEFAULT_PLAN_ENTRIES.map((entry) => [entry.id, toPlan(entry)]));
  if (!plansFile) return plans;
  for (const plan of parsePlansFile(await readPlansFile(plansFile), plansFile)) plans.set(plan.id, plan);
  return plans;
}

function defaultConcurrency(id: string): number {
  return DEFAULT_PLAN_ENTRIES.find((entry) => entry.id === id)?.concurrency ?? DEFAULT_CONCURRENCY;
}

/** Validates the text of a plans file; throws PlansFileError naming the file, entry and field. */
export function parsePlansFile(text: string, file: string): Plan[] {
  const fail = (message: string): never => {
    throw new PlansFileError(`PLANS_FILE ${file}: ${message}`);
  };
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch (error) {
    return fail(`is not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(entries))
    return fail('must be a JSON array of plans, such as [{"id":"starter","name":"Starter","monthly_documents":1000,"retention":"30d","batch_max_items":10}]');
  const seen = new Map<string, number>();
  return entries.map((entry: unknown, index) => {
    const id = typeof (entry as { id?: unknown })?.id === 'string' ? ` (id "${(entry as { id: string }).id}")` : '';
    const where = `entry ${index}${id}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return fail(`${where} must be an object`);
    const result = planFileEntrySchema.safeParse(entry, { reportInput: true });
    if (!result.success) return fail(`${where}: ${describeIssue(result.error.issues[0]!)}`);
    const first = seen.get(result.data.id);
    if (first !== undefined) return fail(`${where}: id "${result.data.id}" is already used by entry ${first}`);
    seen.set(result.data.id, index);
    return toPlan(result.data);
  });
}

/** A plan in the form PLANS_FILE (and the admin API) spells it. */
export function toPlanEntry(plan: Plan): PlanFileEntry {
  return {
    id: plan.id,
    name: plan.name,
    monthly_documents: plan.monthlyDocuments,
    retention: plan.retention,
    batch_max_items: plan.batchMaxItems,
    concurrency: plan.concurrency,
  };
}

/** The plan's retention in seconds (0: documents are not kept). */
export function retentionSeconds(retention: string | 0): number {
  if (retention === 0 || retention === '0') return 0;
  return Number(retention.slice(0, -1)) * RETENTION_UNITS[retention.slice(-1)]!;
}

function toPlan(entry: PlanFileEntry): Plan {
  const retention = entry.retention === '0' ? 0 : entry.retention;
  return Object.freeze({
    id: entry.id,
    name: entry.name,
    monthlyDocuments: entry.monthly_documents,
    retention,
    retentionSeconds: retentionSeconds(retention),
    batchMaxItems: entry.batch_max_items,
    concurrency: entry.concurrency ?? defaultConcurrency(entry.id),
  });
}

async function readPlansFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new PlansFileError(`PLANS_FILE ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return `${issue.keys[0]} is not a plan field (the fields are ${Object.keys(FIELD_RULES).join(', ')})`;
  }
  const field = String(issue.path[0] ?? '') as keyof typeof FIELD_RULES;
  if (issue.input === undefined) return `${field} is required`;
  return `${field} ${FIELD_RULES[field] ?? issue.message} (got ${JSON.stringify(issue.input)})`;
}
