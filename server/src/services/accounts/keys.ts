// Accounts behind API keys: authenticate a presented key, and the admin operations (create,
// list with usage, change, rotate, revoke). The HTTP admin routes and the CLI both call this.
// A key is shown once, at creation or rotation; only its hash is kept.

import { ApiError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { generateApiKey, hashSecret } from '../../accounts/keys.ts';
import { loadPlans, type Plan, type Plans } from '../../accounts/plans.ts';
import { monthOf, type UsageLedger, type UsageSnapshot } from '../../accounts/usage.ts';
import { StoreReadError } from '../../stores/durable-file.ts';
import type { KeyRecord, KeyStore, ReceiptMode } from '../../stores/keys.ts';
import { pageOrBadCursor, type Page } from './paging.ts';

/** The caller behind a valid API key. */
export interface Account {
  readonly keyId: string;
  readonly name: string;
  readonly plan: Plan;
  readonly autoStore: boolean;
  /** Which of its renders keep a receipt (services/accounts/receipts.ts). */
  readonly receipts: ReceiptMode;
}

export interface KeyView {
  id: string;
  name: string;
  planId: string;
  autoStore: boolean;
  receipts: ReceiptMode;
  createdAt: string;
}

export interface KeyWithUsage extends KeyView {
  /** used is null when the key's usage file is damaged (only that key's calls fail; see the doctor). */
  usage: Omit<UsageSnapshot, 'used'> & { used: number | null };
}

export interface KeyChangeRequest {
  name?: string;
  planId?: string;
  autoStore?: boolean;
  receipts?: ReceiptMode;
}

export interface KeysServiceDeps {
  store: KeyStore;
  plans: Plans;
  meter: UsageLedger;
  now?: () => Date;
}

/** Raised when a valid key's plan is no longer configured (PLANS_FILE changed under it). */
export class UnknownPlanError extends Error {
  constructor(
    readonly keyId: string,
    readonly planId: string,
  ) {
    super(`key ${keyId} is on plan "${planId}", which is not configured`);
  }
}

/** Loads the plans (throws PlansFileError for a bad PLANS_FILE) and builds the service over the given stores. */
export async function openKeysService(options: {
  store: KeyStore;
  meter: UsageLedger;
  plansFile: string;
  now?: () => Date;
}): Promise<{ keys: KeysService; meter: UsageLedger }> {
  const plans = await loadPlans(options.plansFile);
  return { keys: new KeysService({ store: options.store, plans, meter: options.meter, now: options.now }), meter: options.meter };
}

export class KeysService {
  private readonly now: () => Date;

  constructor(private readonly deps: KeysServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** The account of a presented API key, or undefined for an unknown, rotated-away or revoked key. */
  async authenticate(presentedKey: string): Promise<Account | undefined> {
    const record = await this.deps.store.findByHash(hashSecret(presentedKey));
    if (!record) return undefined;
    const plan = this.deps.plans.get(record.planId);
    if (!plan) throw new UnknownPlanError(record.id, record.planId);
    return accountOf(record, plan);
  }

  /**
   * The account behind a key id, for work done after its request (background batch items):
   * undefined when the key was revoked. Throws UnknownPlanError as authenticate does.
   */
  async accountById(keyId: string): Promise<Account | undefined> {
    const record = await this.deps.store.get(keyId);
    if (!record || record.keyHash === null) return undefined;
    const plan = this.deps.plans.get(record.planId);
    if (!plan) throw new UnknownPlanError(record.id, record.planId);
    return accountOf(record, plan);
  }

  /** Issues a new key; the returned `key` is the only time it is shown. */
  async create(request: { name: string; planId: string; autoStore?: boolean; receipts?: ReceiptMode }): Promise<KeyView & { key: string }> {
    this.plan(request.planId);
    const key = generateApiKey();
    const at = this.now().toISOString();
    const record: KeyRecord = {
      id: newId('key'),
      name: request.name,
      planId: request.planId,
      autoStore: request.autoStore ?? false,
      receipts: request.receipts ?? 'stored',
      keyHash: hashSecret(key),
      createdAt: at,
      updatedAt: at,
      revokedAt: null,
    };
    await this.deps.store.insert(record);
    return { ...view(record), key };
  }

  /** Every live key with this month's usage (the CLI; the API pages). */
  async list(): Promise<KeyWithUsage[]> {
    const records = await this.deps.store.list();
    return Promise.all(records.map((record) => this.withUsage(record)));
  }

  /**
   * A page of live keys, newest first, with this month's usage. Only the keys of the page have
   * their counters read (files: loaded once and kept in memory; PostgreSQL: one lookup per key of
   * the page), so a page costs the same at 10 or 10,000 keys.
   */
  async page(limit: number, cursor: string | undefined): Promise<Page<KeyWithUsage>> {
    const page = await pageOrBadCursor(() => this.deps.store.page(limit, cursor));
    return { items: await Promise.all(page.items.map((record) => this.withUsage(record))), nextCursor: page.nextCursor };
  }

  /** One live key with this month's usage; 404 not_found for an unknown or revoked id. */
  async get(id: string): Promise<KeyWithUsage> {
    return this.withUsage(await this.live(id));
  }

  /** Changes name, plan or auto_store; takes effect on the key's next request. */
  async update(id: string, changes: KeyChangeRequest): Promise<KeyWithUsage> {
    await this.live(id);
    if (changes.planId !== undefined) this.plan(changes.planId);
    const updated = await this.deps.store.update(id, {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.planId !== undefined ? { planId: changes.planId } : {}),
      ...(changes.autoStore !== undefined ? { autoStore: changes.autoStore } : {}),
      ...(changes.receipts !== undefined ? { receipts: changes.receipts } : {}),
      updatedAt: this.now().toISOString(),
    });
    return this.withUsage(updated ?? missing(id));
  }

  /** Replaces the key's secret: the old one stops working at once, usage and records stay with the id. */
  async rotate(id: string): Promise<KeyView & { key: string }> {
    await this.live(id);
    const key = generateApiKey();
    const updated = await this.deps.store.update(id, { keyHash: hashSecret(key), updatedAt: this.now().toISOString() });
    return { ...view(updated ?? missing(id)), key };
  }

  /** Revokes the key for good; the record stays so its documents and templates keep an owner. */
  async revoke(id: string): Promise<void> {
    await this.live(id);
    const at = this.now().toISOString();
    if (!(await this.deps.store.update(id, { keyHash: null, revokedAt: at, updatedAt: at }))) missing(id);
  }

  /** Live keys whose plan is not configured (PLANS_FILE changed under them). */
  async keysOnUnknownPlans(): Promise<KeyView[]> {
    return (await this.deps.store.list()).filter((record) => !this.deps.plans.has(record.planId)).map(view);
  }

  /** The configured plans, defaults first. */
  plans(): Plan[] {
    return [...this.deps.plans.values()];
  }

  private plan(planId: string): Plan {
    const plan = this.deps.plans.get(planId);
    if (!plan) throw new ApiError('invalid_request', `plan must be one of ${[...this.deps.plans.keys()].join(', ')} (got "${planId}")`);
    return plan;
  }

  private async live(id: string): Promise<KeyRecord> {
    const record = await this.deps.store.get(id);
    return record && record.keyHash !== null ? record : missing(id);
  }

  private async withUsage(record: KeyRecord): Promise<KeyWithUsage> {
    const plan = this.deps.plans.get(record.planId) ?? { id: record.planId, monthlyDocuments: 0 };
    try {
      return { ...view(record), usage: await this.deps.meter.usage(record.id, plan) };
    } catch (error) {
      // One damaged usage file must not break the list for every key: this key shows no count.
      if (!(error instanceof StoreReadError)) throw error;
      return { ...view(record), usage: { month: monthOf(this.now()), used: null, limit: plan.monthlyDocuments, planId: plan.id } };
    }
  }
}

// Field by field like the stores' row mappers, but from a stored key to the service's view: a different pair of types.
function view(record: KeyRecord): KeyView {
  return {
    id: record.id,
    name: record.name,
    planId: record.planId,
    autoStore: record.autoStore,
    receipts: record.receipts ?? 'stored',
    createdAt: record.createdAt,
  };
}

function accountOf(record: KeyRecord, plan: Plan): Account {
  return { keyId: record.id, name: record.name, plan, autoStore: record.autoStore, receipts: record.receipts ?? 'stored' };
}

function missing(id: string): never {
  throw new ApiError('not_found', `There is no API key ${id}.`);
}
