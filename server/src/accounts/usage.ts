// Monthly usage per account (calendar month, UTC) and the reservation that keeps concurrent
// renders inside the allowance. Counting is in memory and synchronous, so two requests can never
// both take the last document; only committed documents are written, through the UsageFile port
// (stores/usage.ts). Knows no paths and no HTTP; the clock is injected.
// A commit may carry a charge tag (a batch item) written in the same write as the count, so that
// after a crash the batch queue can tell whether that item was already charged.

export interface UsageFile {
  /** The count on disk when opened. */
  readonly used: number;
  /** Charge tags on disk when opened (commits whose owner had not yet recorded them). */
  readonly charges?: readonly string[];
  /** Writes the count (and the open charge tags, in the same write); resolves once it is on disk. */
  save(used: number, at: Date, charges?: readonly string[]): Promise<void>;
}

export type OpenUsageFile = (accountId: string, month: string) => Promise<UsageFile>;

export interface MeteredPlan {
  readonly id: string;
  readonly monthlyDocuments: number;
}

export interface UsageSnapshot {
  /** YYYY-MM, UTC. */
  month: string;
  used: number;
  limit: number;
  planId: string;
}

/** The month's allowance is used up (counting renders in progress). */
export class QuotaExceededError extends Error {
  constructor(readonly usage: UsageSnapshot) {
    super(`monthly allowance of ${usage.limit} documents reached for ${usage.month}`);
    this.name = 'QuotaExceededError';
  }
}

/** One document held for a render in progress: commit it when the render succeeded, else release it. */
export interface Reservation {
  readonly month: string;
  /**
   * Counts the document, writes the count and returns the usage with it included. A `chargeTag`
   * is written in the same write, and stays on file until settleCharge (see wasCharged).
   */
  commit(chargeTag?: string): Promise<UsageSnapshot>;
  /** Gives the document back; nothing was written for it. */
  release(): Promise<void>;
}

/**
 * The monthly allowance of every account, wherever it is kept: UsageMeter (the files under
 * DATA_DIR, counted in this process) or stores/pg/usage-ledger.ts (PostgreSQL, exact across
 * instances). Services depend on this, never on one of them.
 */
export interface UsageLedger {
  /** Holds one document of this month's allowance, or throws QuotaExceededError. */
  reserve(accountId: string, plan: MeteredPlan): Promise<Reservation>;
  /** This month's documents of an account (renders in progress not included). */
  usage(accountId: string, plan: MeteredPlan): Promise<UsageSnapshot>;
  /** Whether a commit with this charge tag is on file in `sinceMonth` or a later month up to now. */
  wasCharged(accountId: string, chargeTag: string, sinceMonth: string): Promise<boolean>;
  /** Drops charge tags whose owner has recorded the charge itself; `prefix` drops every tag starting with it. */
  settleCharges(accountId: string, tags: readonly string[], prefix?: string): Promise<void>;
}

interface Counter {
  month: string;
  /** Documents rendered and written. */
  committed: number;
  /** Documents held by renders in progress. */
  reserved: number;
  /** Open charge tags: written with the count, dropped by settleCharge. */
  charges: Set<string>;
  file: UsageFile;
  /** Commits waiting for the next write (group commit: one write carries all of them). */
  pending: PendingCommit[];
  writing: boolean;
}

interface PendingCommit {
  /** +1 for a commit, -1 for a refund. */
  delta: 1 | -1;
  chargeTag: string | undefined;
  resolve: (used: number) => void;
  reject: (error: unknown) => void;
}

/**
 * What became of a charge tag left open on file by a crash: 'charged' (its document exists: keep
 * the charge, drop the tag), 'refund' (it never came to be: give the document back), or
 * undefined (not this resolver's tag; left for its owner, e.g. the batch queue). Files only:
 * PostgreSQL commits a document and its charge in one transaction, so nothing is left open there.
 */
export type ChargeResolver = (tag: string) => Promise<'charged' | 'refund' | undefined>;

export class UsageMeter implements UsageLedger {
  private readonly counters = new Map<string, { month: string; ready: Promise<Counter> }>();
  private resolver: ChargeResolver | undefined;

  constructor(
    private readonly openFile: OpenUsageFile,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Holds one document of this month's allowance, or throws QuotaExceededError. */
  async reserve(accountId: string, plan: MeteredPlan): Promise<Reservation> {
    const month = monthOf(this.now());
    const counter = await this.counter(accountId, month);
    // From here to the increment nothing awaits: the check and the hold are one step.
    if (counter.committed + counter.reserved >= plan.monthlyDocuments) {
      throw new QuotaExceededError({ month, used: counter.committed + counter.reserved, limit: plan.monthlyDocuments, planId: plan.id });
    }
    counter.reserved++;
    let settled = false;
    return {
      month,
      commit: async (chargeTag?: string) => {
        if (settled) throw new Error('reservation already settled');
        settled = true;
        try {
          const used = await this.writeCommit(counter, chargeTag);
          return { month, used, limit: plan.monthlyDocuments, planId: plan.id };
        } finally {
          // Held until the write ended: the allowance is never handed out twice meanwhile.
          counter.reserved--;
        }
      },
      release: async () => {
        if (settled) return;
        settled = true;
        counter.reserved--;
      },
    };
  }

  /**
   * Set before serving (the documents store opens after the meter): open charge tags found when
   * a counter is first loaded are settled with it, durably, before the counter is used.
   */
  setChargeResolver(resolver: ChargeResolver): void {
    this.resolver = resolver;
  }

  /**
   * Gives back a committed document whose work then failed (a stored render whose copy could not
   * be written), removing its charge tag in the same write. If this write fails too, the tag stays
   * on file and the next load of the counter settles it through the resolver.
   */
  async refund(accountId: string, month: string, chargeTag: string): Promise<void> {
    const entry = this.counters.get(accountId);
    if (!entry || entry.month !== month) return; // a new month started: the resolver settles it at the next start
    const counter = await entry.ready;
    await new Promise<number>((resolve, reject) => {
      counter.pending.push({ delta: -1, chargeTag, resolve, reject });
      if (!counter.writing) void this.drain(counter);
    });
  }

  /** This month's documents of an account (renders in progress not included). */
  async usage(accountId: string, plan: MeteredPlan): Promise<UsageSnapshot> {
    const month = monthOf(this.now());
    const counter = await this.counter(accountId, month);
    return { month, used: counter.committed, limit: plan.monthlyDocuments, planId: plan.id };
  }

  /**
   * Whether a commit with this charge tag is on file in `sinceMonth` or a later month up to now
   * (the batch queue after a crash: an item that started rendering in sinceMonth).
   */
  async wasCharged(accountId: string, chargeTag: string, sinceMonth: string): Promise<boolean> {
    const current = monthOf(this.now());
    for (let month = sinceMonth; month <= current; month = nextMonthStart(month).slice(0, 7)) {
      if (month === current) {
        if ((await this.counter(accountId, month)).charges.has(chargeTag)) return true;
      } else if ((await this.openFile(accountId, month)).charges?.includes(chargeTag)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Drops charge tags whose owner has recorded the charge itself (the batch item is marked
   * succeeded on disk); they leave the file with its next write. `prefix` drops every tag that
   * starts with it (a completed batch).
   */
  async settleCharges(accountId: string, tags: readonly string[], prefix?: string): Promise<void> {
    const entry = this.counters.get(accountId);
    if (!entry) return;
    const counter = await entry.ready.catch(() => undefined);
    if (!counter) return;
    for (const tag of tags) counter.charges.delete(tag);
    if (prefix !== undefined) for (const tag of counter.charges) if (tag.startsWith(prefix)) counter.charges.delete(tag);
  }

  /**
   * Write before apply: the new count (and tag) is written first and counted in memory only once
   * durable, so a failed write (a full disk) leaves memory and file as they were and the caller
   * answers an error instead of the PDF. Commits arriving during a write share the next one.
   */
  private writeCommit(counter: Counter, chargeTag: string | undefined): Promise<number> {
    const done = new Promise<number>((resolve, reject) => counter.pending.push({ delta: 1, chargeTag, resolve, reject }));
    if (!counter.writing) void this.drain(counter);
    return done;
  }

  private async drain(counter: Counter): Promise<void> {
    counter.writing = true;
    while (counter.pending.length > 0) {
      const group = counter.pending.splice(0);
      const charges = new Set(counter.charges);
      let used = counter.committed;
      const counts: number[] = [];
      for (const change of group) {
        used += change.delta;
        counts.push(used);
        if (change.chargeTag === undefined) continue;
        if (change.delta > 0) charges.add(change.chargeTag);
        else charges.delete(change.chargeTag);
      }
      try {
        await counter.file.save(used, this.now(), [...charges]);
      } catch (error) {
        for (const change of group) change.reject(error);
        continue;
      }
      counter.committed = used;
      counter.charges = charges;
      for (const [at, change] of group.entries()) change.resolve(counts[at]!);
    }
    counter.writing = false;
  }

  /** A counter just loaded: tags the resolver knows are settled in one durable write before use. */
  private async settleOpenCharges(counter: Counter): Promise<Counter> {
    if (!this.resolver || counter.charges.size === 0) return counter;
    const charges = new Set(counter.charges);
    let used = counter.committed;
    for (const tag of counter.charges) {
      const outcome = await this.resolver(tag);
      if (outcome === undefined) continue;
      charges.delete(tag);
      if (outcome === 'refund') used = Math.max(0, used - 1);
    }
    if (charges.size === counter.charges.size) return counter;
    await counter.file.save(used, this.now(), [...charges]);
    return { ...counter, committed: used, charges };
  }

  private counter(accountId: string, month: string): Promise<Counter> {
    const current = this.counters.get(accountId);
    if (current && current.month === month) return current.ready;
    // A new month starts from its own file; renders still holding last month's counter settle there.
    const ready = this.openFile(accountId, month).then((file) =>
      this.settleOpenCharges({ month, committed: file.used, reserved: 0, charges: new Set(file.charges ?? []), file, pending: [], writing: false }),
    );
    const entry = { month, ready };
    this.counters.set(accountId, entry);
    ready.catch(() => {
      if (this.counters.get(accountId) === entry) this.counters.delete(accountId);
    });
    return ready;
  }
}

/** The calendar month (UTC) of a date, as YYYY-MM. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** The first instant of the month after the given one, as YYYY-MM-DD. */
export function nextMonthStart(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, monthNumber, 1)).toISOString().slice(0, 10);
}

/**
 * Bench hook: times reserve + commit (the write included) for `renders` renders spread over the
 * given accounts; returns milliseconds per render.
 */
export async function timeMetering(meter: UsageLedger, accountIds: readonly string[], plan: MeteredPlan, renders: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < renders; i++) {
    const started = performance.now();
    const reservation = await meter.reserve(accountIds[i % accountIds.length]!, plan);
    await reservation.commit();
    times.push(performance.now() - started);
  }
  return times;
}
