// One long-lived LibreOffice: our Python bridge (server/python/office_bridge.py) and the soffice
// it starts, in a process group of their own, with a profile folder of their own, optionally in a
// network namespace with nothing in it. Converts one document at a time over JSON lines; a
// timeout or a crash kills the whole group. Knows nothing of slots, keys or HTTP (office-pool.ts).

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '../logger.ts';
import { OfficeConversionError, OfficeCrashedError, OfficeTimeoutError, type OfficeFailureCode } from './errors.ts';
import type { OfficeInstall } from './office-install.ts';
import { writeOfficeProfile } from './office-profile.ts';
import type { OfficeExportOptions } from './office-options.ts';

/** One conversion as the bridge takes it: files on disk, the kind (extension) and the export options. */
export interface OfficeJob {
  input: string;
  output: string;
  kind: string;
  options: OfficeExportOptions;
}

export interface OfficeProcessOptions {
  install: OfficeInstall;
  /** Where this process's profile folder goes (removed when it stops). */
  workDir: string;
  /** Start soffice inside `unshare --net`: no network interface but a loopback that is down. */
  isolateNetwork: boolean;
  startTimeoutMs: number;
  log: Logger;
  /** Aborted when the server stops: a start under way is killed rather than awaited (a cold soffice takes seconds). */
  signal?: AbortSignal;
}

interface Reply {
  id?: number;
  ready?: boolean;
  ok?: boolean;
  code?: string;
  message?: string;
  version?: string;
}

const DOCUMENT_CODES = new Set<string>(['password_required', 'password_incorrect', 'conversion_failed', 'page_range']);

export class OfficeProcess {
  /** Conversions done by this process (OFFICE_RESTART_AFTER counts them). */
  conversions = 0;
  private nextId = 1;
  private waiting: { id: number; resolve: (reply: Reply) => void; reject: (error: Error) => void } | undefined;
  private exited = false;
  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
    private readonly log: Logger,
    readonly version: string,
    /** The last chunks soffice and the bridge wrote to stderr, for the log when one dies. */
    private readonly stderrTail: string[],
  ) {}

  /** Starts the bridge and soffice and waits until soffice accepts conversions. */
  static async start(options: OfficeProcessOptions): Promise<OfficeProcess> {
    const { install, isolateNetwork, log } = options;
    const profile = path.join(options.workDir, `profile-${process.pid}-${randomBytes(6).toString('hex')}`);
    await writeOfficeProfile(profile);
    const pipe = `quire-office-${randomBytes(8).toString('hex')}`;
    const bridgeArgs = [install.bridge, install.soffice, profile, pipe, String(options.startTimeoutMs / 1000)];
    const [command, args] = isolateNetwork
      ? ['unshare', ['--user', '--map-root-user', '--net', '--', install.python, ...bridgeArgs]]
      : [install.python, bridgeArgs];
    // detached: a process group of its own, so a kill reaches soffice.bin and oosplash too.
    const child = spawn(command, args, { detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, SAL_USE_VCLPLUGIN: 'svp' } });
    // A write to a bridge that has just died must not become an unhandled error: its exit is handled.
    child.stdin!.on('error', () => {});
    const lines = createInterface({ input: child.stdout! });
    const tail: string[] = [];
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      tail.push(chunk);
      if (tail.length > 20) tail.shift();
    });
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const first = await new Promise<Reply>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`LibreOffice did not start within ${options.startTimeoutMs} ms`)), options.startTimeoutMs + 2_000);
      onAbort = () => reject(new Error('LibreOffice was still starting when the server stopped'));
      if (options.signal?.aborted) onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      lines.once('line', (line) => {
        try {
          resolve(JSON.parse(line) as Reply);
        } catch {
          reject(new Error(`the office bridge said something unexpected: ${line.slice(0, 200)}`));
        }
      });
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the office bridge exited with code ${code} while starting: ${tail.join('').slice(-500)}`)));
    })
      .finally(() => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort!);
      })
      .catch(async (error: unknown) => {
        killGroup(child);
        await removeProfile(profile);
        throw error;
      });
    if (!first.ready) {
      killGroup(child);
      await removeProfile(profile);
      throw new Error(`LibreOffice could not be started: ${first.message ?? 'no reason given'}`);
    }
    const office = new OfficeProcess(child, profile, log, first.version ?? 'LibreOffice', tail);
    lines.on('line', (line) => office.onLine(line));
    child.once('exit', (code, signal) => office.onExit(code, signal));
    return office;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Converts one document; throws OfficeConversionError (the document's fault), OfficeTimeoutError or OfficeCrashedError. */
  async convert(job: OfficeJob, timeoutMs: number): Promise<void> {
    if (this.exited) throw new OfficeCrashedError('LibreOffice is not running');
    if (this.waiting) throw new Error('an office process converts one document at a time');
    const id = this.nextId++;
    this.conversions++;
    let timer: NodeJS.Timeout | undefined;
    const reply = await new Promise<Reply>((resolve, reject) => {
      this.waiting = { id, resolve, reject };
      timer = setTimeout(() => {
        this.waiting = undefined;
        // Whatever LibreOffice is stuck on, only a kill ends it: the pool starts a fresh one.
        this.kill();
        reject(new OfficeTimeoutError(timeoutMs));
      }, timeoutMs);
      this.child.stdin!.write(`${JSON.stringify({ id, ...job })}\n`);
    }).finally(() => clearTimeout(timer));
    if (reply.ok) return;
    if (reply.code && DOCUMENT_CODES.has(reply.code))
      throw new OfficeConversionError(reply.code as OfficeFailureCode, reply.message ?? 'LibreOffice could not convert the file');
    // The bridge lost soffice mid-conversion: it stops itself; make sure of it.
    this.kill();
    throw new OfficeCrashedError(`LibreOffice stopped while converting: ${reply.message ?? 'no reason given'}`);
  }

  /** Ends the process group at once and removes the profile (idempotent). */
  kill(): void {
    killGroup(this.child);
  }

  /** Asks the bridge to close LibreOffice, waits a little, then kills what is left and removes the profile. */
  async stop(graceMs = 3_000): Promise<void> {
    if (!this.exited) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.stdin!.end();
      const timer = setTimeout(() => this.kill(), graceMs);
      await exited;
      clearTimeout(timer);
    }
    killGroup(this.child);
    await removeProfile(this.profile);
  }

  private onLine(line: string): void {
    let reply: Reply;
    try {
      reply = JSON.parse(line) as Reply;
    } catch {
      this.log.warn({ line: line.slice(0, 200) }, 'office bridge wrote a line that is not JSON');
      return;
    }
    const waiting = this.waiting;
    if (!waiting || reply.id !== waiting.id) return;
    this.waiting = undefined;
    waiting.resolve(reply);
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exited = true;
    // soffice.bin may outlive the bridge; the group goes with it.
    killGroup(this.child);
    void removeProfile(this.profile);
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) {
      this.log.warn({ code, signal, stderr: this.stderrTail.join('').slice(-500) }, 'LibreOffice stopped during a conversion');
      waiting.reject(new OfficeCrashedError('LibreOffice stopped while converting the document'));
    }
  }
}

/**
 * Removes a profile folder, never rejecting: a LibreOffice of the group may still be dying and
 * writing to it (ENOTEMPTY), and the pool removes its whole work folder when it closes anyway. A
 * rejection here used to end the server's shutdown half-way (or, unawaited, the process).
 */
async function removeProfile(profile: string): Promise<void> {
  await rm(profile, { recursive: true, force: true }).catch(() => undefined);
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
