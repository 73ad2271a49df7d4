// A fixed set of in-memory session partitions for the render windows. Electron never frees a
// partition's session object once made (session.fromPartition keeps it until the app exits), so a
// partition per render would grow without bound: the pool makes `size` of them, locked down once,
// and empties one (storage, cookies, cache) before anyone gets it again. No Electron here.

export interface PoolSession {
  clearStorageData(): Promise<void>;
  clearCache(): Promise<void>;
}

export interface Partition<S extends PoolSession> {
  readonly name: string;
  readonly session: S;
}

export class PartitionPool<S extends PoolSession> {
  private readonly free: Partition<S>[] = [];
  private readonly made = new Map<string, Partition<S>>();
  private readonly waiting: ((partition: Partition<S>) => void)[] = [];
  private readonly dirty = new Set<string>();

  /**
   * @param names the partition names, made on first use
   * @param open makes the session of a name and applies its rules (once per partition)
   */
  constructor(
    private readonly names: readonly string[],
    private readonly open: (name: string) => Promise<S>,
  ) {}

  /** Partitions made so far (never more than the pool's size). */
  get size(): number {
    return this.made.size;
  }

  /** Whether take() can answer without waiting for a partition to be given back. */
  hasFree(): boolean {
    return this.free.length > 0 || this.made.size < this.names.length;
  }

  /** An empty partition: a free one, a new one while fewer than the pool's size exist, else the next given back. */
  async take(): Promise<Partition<S>> {
    const free = this.free.pop();
    if (free) return this.emptied(free);
    const name = this.names.find((candidate) => !this.made.has(candidate));
    if (name === undefined) return this.emptied(await new Promise<Partition<S>>((resolve) => this.waiting.push(resolve)));
    const placeholder = { name } as Partition<S>;
    this.made.set(name, placeholder);
    try {
      const partition = { name, session: await this.open(name) };
      this.made.set(name, partition);
      return partition;
    } catch (error) {
      this.made.delete(name);
      throw error;
    }
  }

  /** Empties the partition (its windows must be gone) and hands it to the next taker. */
  async giveBack(partition: Partition<S>): Promise<void> {
    // Emptied here, off the next render's path; if that fails, take() tries again before handing it out.
    if (await clear(partition.session)) this.dirty.delete(partition.name);
    else this.dirty.add(partition.name);
    const next = this.waiting.shift();
    if (next) next(partition);
    else this.free.push(partition);
  }

  /** A partition whose last clearing failed is cleared again, or refused: it must never carry one render's data into another. */
  private async emptied(partition: Partition<S>): Promise<Partition<S>> {
    if (!this.dirty.has(partition.name)) return partition;
    if (!(await clear(partition.session))) {
      this.free.push(partition);
      throw new Error(`render partition ${partition.name} could not be emptied`);
    }
    this.dirty.delete(partition.name);
    return partition;
  }
}

async function clear(session: PoolSession): Promise<boolean> {
  return Promise.all([session.clearStorageData(), session.clearCache()]).then(
    () => true,
    () => false,
  );
}
