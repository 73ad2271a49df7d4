// A few worker threads that run one kind of CPU-bound task off the server's event loop (PDF
// post-processing, Markdown conversion, e-invoice rules), started on first use; a task goes to the
// thread with less queued. A thread that dies fails its tasks and is replaced on the next one; one
// that cannot start at all (a packaging fault) leaves the work to the main thread, slower but right.
// A pool may bound each task's time (the thread is ended, its tasks fail) and the thread's heap.
// Knows nothing of what the tasks are: the caller gives the entry module and the error mapping,
// and the entry module answers through serveTasks.

import { parentPort, Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';

/** What crosses the thread boundary of a failed task (an Error's own fields do not survive it). */
export interface ErrorShape {
  name: string;
  message: string;
  field?: string;
  index?: number;
  /** The error's other own fields that are text or numbers (a PdfInputError's problem, a timeout's budget). */
  details?: Record<string, string | number>;
}

type Reply<Result> = { id: number; value: Result } | { id: number; error: ErrorShape } | { ready: true };

export interface WorkerPoolOptions<Task, Result> {
  threads: number;
  /**
   * The worker's entry: `source` (a .ts module, run through tsx) when this server runs from
   * source, else `bundled` (the .mjs scripts/build-electron.ts writes beside main.mjs). Both
   * resolved by the caller against its own import.meta.url.
   */
  source: URL;
  bundled: URL;
  /** Runs a task on the main thread when no thread can start. */
  runInline(task: Task): Promise<Result>;
  /** The error a failed task rejects with, from its shape. */
  errorFrom(error: ErrorShape): Error;
  /** A task still unanswered after this long ends its thread (a loop, a stall) and fails with lostError('timeout'). */
  taskTimeoutMs?: number;
  /** The error a task fails with when its thread is lost: ended for a timeout, or stopped (a crash, out of memory). */
  lostError?(why: 'timeout' | 'stopped', detail: string): Error;
  /** The thread's heap bounds (a task that needs more ends the thread: lostError('stopped')). */
  resourceLimits?: ResourceLimits;
}

export class WorkerPool<Task, Result> {
  private readonly threads: (TaskThread<Task, Result> | undefined)[];
  private unavailable = false;

  constructor(private readonly options: WorkerPoolOptions<Task, Result>) {
    this.threads = Array.from({ length: options.threads });
  }

  /** Runs the task on the least busy thread (started now if need be). */
  run(task: Task): Promise<Result> {
    if (this.unavailable) return this.inline(task);
    let index = 0;
    for (let i = 1; i < this.threads.length; i++) if ((this.threads[i]?.queued ?? 0) < (this.threads[index]?.queued ?? 0)) index = i;
    let thread = this.threads[index];
    if (!thread) {
      thread = new TaskThread(
        this.options,
        (task) => this.inline(task),
        (task) => this.run(task),
        () => {
          // Only this thread's own slot: a thread ended for a timeout has been replaced before its exit.
          if (this.threads[index] === thread) this.threads[index] = undefined;
        },
        () => {
          this.unavailable = true;
        },
      );
      this.threads[index] = thread;
    }
    return thread.run(task);
  }

  private async inline(task: Task): Promise<Result> {
    try {
      return await this.options.runInline(task);
    } catch (error) {
      throw this.options.errorFrom(error as ErrorShape);
    }
  }
}

/** One worker thread and the tasks it has been given. */
class TaskThread<Task, Result> {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (result: Result) => void; reject: (error: Error) => void; task: Task; timer?: NodeJS.Timeout }>();
  private nextId = 1;
  /** The entry module has loaded (it said so); before that a lost thread is a packaging fault. */
  private started = false;

  constructor(
    private readonly options: WorkerPoolOptions<Task, Result>,
    inline: (task: Task) => Promise<Result>,
    /** Runs a task again on the pool: one that waited behind a task that ran out of time. */
    private readonly rerun: (task: Task) => Promise<Result>,
    private readonly onGone: () => void,
    onCannotStart: () => void,
  ) {
    // From source (tsx) the worker registers tsx first (a worker does not inherit the loader).
    // (The loader's name is not written as an import literal: the desktop bundle must not appear
    // to load tsx, scripts/desktop-packages.ts.)
    const fromSource = import.meta.url.endsWith('.ts');
    const loader = JSON.stringify('tsx/esm/api');
    const entry = JSON.stringify(options.source.href);
    this.worker = fromSource
      ? new Worker(`import(${loader}).then(({ register }) => { register(); return import(${entry}); })`, { eval: true, resourceLimits: options.resourceLimits })
      : new Worker(options.bundled, { resourceLimits: options.resourceLimits });
    this.worker.on('message', (reply: Reply<Result>) => this.settle(reply));
    const fail = (error: Error) => {
      onGone();
      if (!this.started) onCannotStart();
      for (const waiting of this.pending.values()) {
        clearTimeout(waiting.timer);
        // A thread that never loaded leaves its tasks to the main thread; one that crashed under a task fails it.
        if (!this.started) inline(waiting.task).then(waiting.resolve, waiting.reject);
        else waiting.reject(options.lostError?.('stopped', error.message) ?? error);
      }
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`a worker thread stopped (exit code ${code})`)));
  }

  get queued(): number {
    return this.pending.size;
  }

  run(task: Task): Promise<Result> {
    const id = this.nextId++;
    return new Promise<Result>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, task });
      this.armFront();
      this.worker.ref();
      this.worker.postMessage({ id, task });
    });
  }

  /**
   * Starts the clock of the task in front (the thread runs one at a time): once the thread has
   * loaded, and not while the task waits behind another, so neither a slow start nor a queue on a
   * busy machine is counted. A task past its time is stuck, not slow: the thread is ended, not left
   * running, and the tasks that waited behind it run again on a new thread (they did nothing wrong;
   * before, they failed as if their thread had run out of memory).
   */
  private armFront(): void {
    const { taskTimeoutMs, lostError } = this.options;
    const [front] = this.pending;
    if (!this.started || taskTimeoutMs === undefined || !front || front[1].timer) return;
    const [id, waiting] = front;
    waiting.timer = setTimeout(() => {
      this.pending.delete(id);
      waiting.reject(lostError?.('timeout', `no answer within ${taskTimeoutMs} ms`) ?? new Error(`a worker task took longer than ${taskTimeoutMs} ms`));
      const behind = [...this.pending.values()];
      this.pending.clear();
      // Out of the pool now, so the next task starts a new thread rather than wait on this one's end.
      this.onGone();
      void this.worker.terminate();
      for (const next of behind) this.rerun(next.task).then(next.resolve, next.reject);
    }, taskTimeoutMs);
  }

  private settle(reply: Reply<Result>): void {
    this.started = true;
    if ('ready' in reply) {
      this.armFront();
      return;
    }
    const waiting = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    // An idle worker must not keep the process alive.
    if (this.pending.size === 0) this.worker.unref();
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.armFront();
    if ('value' in reply) waiting.resolve(reply.value);
    else waiting.reject(this.options.errorFrom(reply.error));
  }
}

/**
 * Moves what can be moved; since Node 22 a Buffer from Node's shared pool (what fs, child
 * processes and Buffer.from hand back) is marked untransferable and would fail the whole reply, so
 * such a result is copied instead.
 */
function postReply(reply: unknown, transfer: TransferListItem[]): void {
  try {
    parentPort!.postMessage(reply, transfer);
  } catch {
    parentPort!.postMessage(reply);
  }
}

/**
 * The worker side: answers each task message with run's result (its `transfer` moved, not
 * copied) or the error's shape, one task at a time (a task that awaits does not let the next one
 * in: the main side times each task from the moment it is in front). `warm` loads what the tasks
 * need before the thread says it is ready, so a library's load on a busy machine is not on any
 * task's clock.
 */
export function serveTasks<Task, Result>(
  run: (task: Task) => Promise<Result> | Result,
  transfer: (result: Result) => TransferListItem[] = () => [],
  warm: () => Promise<unknown> = async () => undefined,
): void {
  let turn: Promise<void> = Promise.resolve();
  const answer = async ({ id, task }: { id: number; task: Task }) => {
    try {
      const value = await run(task);
      postReply({ id, value } satisfies Reply<Result>, [...new Set(transfer(value))]);
    } catch (error) {
      const { name, message, field, index } = error as Partial<ErrorShape>;
      const details = Object.fromEntries(
        Object.entries(error as object).filter((entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number'),
      );
      parentPort!.postMessage({ id, error: { name: name ?? 'Error', message: message ?? String(error), field, index, details } } satisfies Reply<Result>);
    }
  };
  parentPort!.on('message', (message: { id: number; task: Task }) => {
    turn = turn.then(() => answer(message));
  });
  // Loaded: from now on a lost thread is a crash under a task, not a packaging fault. (A warm-up
  // that fails leaves the load to the first task, as without one.)
  void warm()
    .catch(() => undefined)
    .then(() => parentPort!.postMessage({ ready: true } satisfies Reply<Result>));
}
