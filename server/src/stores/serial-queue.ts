// Runs changes that share a key one after another (and changes under different keys side by
// side), so a write cannot land after a delete that was asked for later.

export class SerialQueue {
  private readonly queues = new Map<string, Promise<unknown>>();

  /** Runs work after every earlier work of the same key has settled. */
  run<R>(key: string, work: () => Promise<R>): Promise<R> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    const settled = run.catch(() => undefined);
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return run;
  }
}
