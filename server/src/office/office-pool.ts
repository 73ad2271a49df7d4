// A small pool of warm LibreOffice processes (OFFICE_CONCURRENCY), each converting one document
// at a time, behind the same fair per-key slots as renders (render/render-slots.ts). A process is
// replaced after OFFICE_RESTART_AFTER conversions, after a timeout and after a crash, in the
// background, so the next conversion finds a warm one. Never a process per request.

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import { RenderSlots, type RenderPriority, type Tenant } from '../render/render-slots.ts';
import { OfficeCrashedError, OfficeTimeoutError, OfficeUnavailableError } from './errors.ts';
import type { OfficeKind } from './file-kinds.ts';
import type { OfficeInstall } from './office-install.ts';
import type { OfficeExportOptions } from './office-options.ts';
import { OfficeProcess } from './office-process.ts';

export interface OfficePoolOptions {
  install: OfficeInstall;
  /** Profiles and conversion files live under here (DATA_DIR/office). */
  workDir: string;
  concurrency: number;
  restartAfter: number;
  isolateNetwork: boolean;
  queueSize: number;
  queueTimeoutMs: number;
  log: Logger;
  startTimeoutMs?: number;
  /** Told about each conversion's wall time and each process start (metrics). */
  onRestart?: (reason: string) => void;
}

export interface OfficeConversion {
  bytes: Uint8Array;
  kind: OfficeKind;
  /** The name LibreOffice opens the file under, without extension (a CSV's sheet is named after it); default input. */
  baseName?: string;
  options: OfficeExportOptions;
  timeoutMs: number;
  tenant?: Tenant;
  priority?: RenderPriority;
}

export interface OfficeStats {
  available: true;
  version: string;
  processes: number;
  alive: number;
  busy: number;
  queued: number;
  restarts: number;
  conversions: number;
  isolated_network: boolean;
}

/** One pool slot: its current process, or the start under way. */
interface Worker {
  process: OfficeProcess | undefined;
  starting: Promise<OfficeProcess> | undefined;
  busy: boolean;
}

/** What the office converter works with: the warm pool, or why there is none. */
export type OfficeAvailability = { pool: OfficePool } | { unavailable: string };

export class OfficePool {
  private readonly slots: RenderSlots;
  private readonly workers: Worker[];
  private restarts = 0;
  private conversions = 0;
  private version = 'LibreOffice';
  private closed = false;
  /** Processes replaced and still stopping (a grace for LibreOffice to close): close() waits for them. */
  private readonly retiring = new Set<Promise<void>>();
  /** Aborted by close(): a LibreOffice still starting is killed, not waited for (it may take many seconds). */
  private readonly closing = new AbortController();

  constructor(private readonly options: OfficePoolOptions) {
    this.slots = new RenderSlots(options.concurrency, options.queueSize, options.queueTimeoutMs, () => 1500);
    this.workers = Array.from({ length: options.concurrency }, () => ({ process: undefined, starting: undefined, busy: false }));
  }

  /** Starts every process (resolves once the first is warm; failures are logged and retried on use). */
  async warm(): Promise<void> {
    await mkdir(this.options.workDir, { recursive: true });
    await Promise.any(this.workers.map((worker) => this.ready(worker))).catch((error: unknown) => {
      this.options.log.error({ err: error }, 'LibreOffice could not be started; office conversions will retry');
    });
  }

  /** Converts bytes of a checked kind to PDF bytes on a warm process, within its time budget. */
  async convert(job: OfficeConversion): Promise<Uint8Array> {
    const release = await this.slots.acquire(job.priority, job.tenant);
    const worker = this.workers.find((candidate) => !candidate.busy)!;
    worker.busy = true;
    await mkdir(this.options.workDir, { recursive: true });
    const dir = await mkdtemp(path.join(this.options.workDir, 'job-'));
    try {
      const process = await this.ready(worker).catch((error: unknown) => {
        throw new OfficeUnavailableError(`LibreOffice could not be started (${(error as Error).message})`);
      });
      const input = path.join(dir, `${job.baseName ?? 'input'}.${job.kind}`);
      const output = path.join(dir, 'output.pdf');
      await writeFile(input, job.bytes);
      try {
        await process.convert({ input, output, kind: job.kind, options: job.options }, job.timeoutMs);
      } catch (error) {
        if (error instanceof OfficeTimeoutError || error instanceof OfficeCrashedError)
          this.replace(worker, error instanceof OfficeTimeoutError ? 'timeout' : 'crash');
        throw error;
      }
      this.conversions++;
      if (this.options.restartAfter > 0 && process.conversions >= this.options.restartAfter) this.replace(worker, 'restart_after');
      return new Uint8Array(await readFile(output));
    } finally {
      worker.busy = false;
      release();
      await rm(dir, { recursive: true, force: true });
    }
  }

  stats(): OfficeStats {
    const slots = this.slots.stats();
    return {
      available: true,
      version: this.version,
      processes: this.workers.length,
      alive: this.workers.filter((worker) => worker.process?.alive).length,
      busy: slots.busy,
      queued: slots.queued + slots.backgroundQueued,
      restarts: this.restarts,
      conversions: this.conversions,
      isolated_network: this.options.isolateNetwork,
    };
  }

  /**
   * Refuses new conversions, stops every process (those being replaced too: a LibreOffice closing
   * writes its profile, user/pack, until it exits) and then removes the work folder. Never rejects:
   * the server's shutdown goes on past a folder that could not be removed (issue 40: ENOTEMPTY here
   * left the server's listeners open and its test file running for ever).
   */
  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    this.slots.close();
    await Promise.all([
      ...this.workers.map(async (worker) => {
        const process = worker.process ?? (await worker.starting?.catch(() => undefined));
        await process?.stop();
      }),
      ...this.retiring,
    ]);
    await rm(this.options.workDir, { recursive: true, force: true }).catch((error: unknown) =>
      this.options.log.warn({ err: error, dir: this.options.workDir }, 'the office work folder could not be removed'),
    );
  }

  /** The worker's warm process, starting one when it has none (or its last one died). */
  private ready(worker: Worker): Promise<OfficeProcess> {
    if (worker.process?.alive) return Promise.resolve(worker.process);
    worker.process = undefined;
    worker.starting ??= OfficeProcess.start({
      install: this.options.install,
      workDir: this.options.workDir,
      isolateNetwork: this.options.isolateNetwork,
      startTimeoutMs: this.options.startTimeoutMs ?? 60_000,
      log: this.options.log,
      signal: this.closing.signal,
    })
      .then(async (process) => {
        if (this.closed) {
          await process.stop();
          throw new OfficeUnavailableError('the server is shutting down');
        }
        worker.process = process;
        this.version = process.version;
        return process;
      })
      .finally(() => {
        worker.starting = undefined;
      });
    return worker.starting;
  }

  /** Kills the worker's process and starts its successor in the background. */
  private replace(worker: Worker, reason: string): void {
    const old = worker.process;
    worker.process = undefined;
    this.restarts++;
    this.options.onRestart?.(reason);
    this.options.log.info({ reason, conversions: old?.conversions }, 'restarting a LibreOffice process');
    if (old) {
      // Not awaited by the conversion that asked for it; close() waits for it.
      const stopping = old.stop(reason === 'restart_after' ? 3_000 : 0).finally(() => this.retiring.delete(stopping));
      this.retiring.add(stopping);
    }
    if (!this.closed) this.ready(worker).catch((error: unknown) => this.options.log.error({ err: error }, 'LibreOffice could not be restarted'));
  }
}
