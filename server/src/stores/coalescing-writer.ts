// Whole-file replacement with at most one write in flight per file: a write that arrives while
// one is running replaces any text already queued, and resolves once that newer text is on disk.
// How the text is persisted (temp file, fsync, rename) is the caller's.

interface QueuedWrite {
  text: string;
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class CoalescingWriter {
  private inFlight: Promise<void> | undefined;
  private queued: QueuedWrite | undefined;

  constructor(private readonly persist: (text: string) => Promise<void>) {}

  /** Resolves once this text, or a newer one, is persisted. */
  write(text: string): Promise<void> {
    if (!this.inFlight) return this.start(text);
    if (this.queued) {
      this.queued.text = text;
      return this.queued.promise;
    }
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    this.queued = { text, promise, resolve, reject };
    return promise;
  }

  /** Resolves when nothing is in flight or queued. */
  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight.catch(() => undefined);
  }

  private start(text: string): Promise<void> {
    const run = this.persist(text).finally(() => {
      this.inFlight = undefined;
      const next = this.queued;
      this.queued = undefined;
      if (next) this.start(next.text).then(next.resolve, next.reject);
    });
    this.inFlight = run;
    return run;
  }
}
