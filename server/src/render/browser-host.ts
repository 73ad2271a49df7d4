// Owns the Chromium process: launches it with the reviewed flags, relaunches it when it crashes
// or after a set number of renders, and closes it without leaving processes or profile folders.
// It knows nothing of pages or isolation (page-source.ts) nor of requests.

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Protocol } from 'puppeteer-core';
import type { Logger } from '../logger.ts';
import type { ChromiumExecutable } from './chromium-path.ts';
import { RendererCrashedError } from './errors.ts';
import { launchOptions, needsNoSandbox } from './launch-flags.ts';
import { isProcessRunning } from '../process-alive.ts';

export interface BrowserHostOptions {
  executable: ChromiumExecutable;
  env: Record<string, string>;
  /** Relaunch after this many renders (0: never). */
  recycleAfter: number;
  proxyServer?: string;
  log: Logger;
  onRestart?: (reason: string) => void;
}

/** What a page source hears of the browser's life: each launch, and each crash (an unexpected disconnect). */
export interface BrowserWatcher {
  launched(generation: BrowserGeneration): void;
  crashed(generation: BrowserGeneration): void;
}

/** One launched Chromium. Renders hold it through a lease so a retired one closes only when idle. */
export class BrowserGeneration {
  inFlight = 0;
  renders = 0;
  retired = false;
  private closing: Promise<void> | undefined;
  private readonly ended = new AbortController();

  constructor(
    readonly id: number,
    readonly browser: Browser,
    private readonly profileDir: string,
    /** The browser's version string ("HeadlessChrome/156.0.8078.108"): a build, as the crash breaker counts them. */
    readonly version: string,
  ) {
    browser.once('disconnected', () => this.ended.abort());
  }

  /**
   * The work, or a RendererCrashedError as soon as the browser is gone. For waits on events a dead
   * browser never sends: puppeteer's BrowserContext.waitForTarget ends neither on a disconnect nor
   * on a signal, only at its own 30 s timeout (a render whose browser was killed while its page
   * opened waited out its whole budget there, 1 run in 117 of four copies at load ~12).
   */
  whileAlive<T>(work: Promise<T>): Promise<T> {
    const { signal } = this.ended;
    let fail: () => void = () => undefined;
    const gone = new Promise<never>((_, reject) => {
      fail = () => reject(new RendererCrashedError('the browser died while a page opened', 'browser'));
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
    gone.catch(() => undefined);
    // A long-lived browser serves thousands of pages: each one's listener goes when its work settles.
    return Promise.race([work, gone]).finally(() => signal.removeEventListener('abort', fail));
  }

  get isAlive(): boolean {
    return !this.closing && this.browser.connected;
  }

  /** Closes the browser, makes sure its process group is gone and removes its profile. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.ended.abort();
      const processId = this.browser.process()?.pid;
      await Promise.race([this.browser.close().catch(() => undefined), delay(5000)]);
      if (processId) killGroup(processId);
      await rm(this.profileDir, { recursive: true, force: true }).catch(() => undefined);
    })();
    return this.closing;
  }
}

export class BrowserHost {
  private current: BrowserGeneration | undefined;
  private launching: Promise<BrowserGeneration> | undefined;
  private nextId = 1;
  private closed = false;
  private lastLaunchError: Error | undefined;
  private versionText = '';
  restarts = 0;
  private readonly watchers: BrowserWatcher[] = [];

  constructor(private readonly options: BrowserHostOptions) {}

  /** Tells the watcher of every later launch and crash. */
  watch(watcher: BrowserWatcher): void {
    this.watchers.push(watcher);
  }

  /** The executable's path, as launched. */
  get executablePath(): string {
    return this.options.executable.path;
  }

  /** Launches the first browser; throws if Chromium cannot start at all. */
  async start(): Promise<void> {
    await removeStaleProfiles();
    await this.generation();
  }

  get version(): string {
    return this.versionText;
  }

  /** The browser renders go to now (undefined before the first launch). */
  get currentGeneration(): BrowserGeneration | undefined {
    return this.current;
  }

  /** Whether targets can be drawn on request (launch-flags.ts, --run-all-compositor-stages-before-draw): headless shell only. */
  get drawsFramesOnRequest(): boolean {
    return this.options.executable.isHeadlessShell;
  }

  get launchError(): Error | undefined {
    return this.lastLaunchError;
  }

  /** The browser to render on, launching a replacement if the last one died or was retired. */
  async generation(): Promise<BrowserGeneration> {
    if (this.closed) throw new RendererCrashedError('the renderer is shutting down');
    if (this.current?.isAlive && !this.current.retired) return this.current;
    this.launching ??= this.launch().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  /**
   * Counts a render against the recycle budget; retires the generation when it is spent and
   * launches its successor at once, as after a crash: otherwise an idle service had no live
   * browser until the next render, and /health answered 503 though a render would have worked.
   */
  countRender(generation: BrowserGeneration): void {
    generation.renders++;
    const { recycleAfter } = this.options;
    if (recycleAfter > 0 && generation.renders >= recycleAfter && !generation.retired) {
      this.retire(generation, `recycled after ${generation.renders} renders`);
      this.generation().catch(() => undefined);
    }
  }

  /** Marks a generation as done; it closes as soon as its last render finishes. */
  retire(generation: BrowserGeneration, reason: string): void {
    if (generation.retired) return;
    generation.retired = true;
    this.restarts++;
    this.options.log.info({ browser: generation.id, reason }, 'browser retired');
    this.options.onRestart?.(reason);
    if (generation.inFlight === 0) void generation.close();
  }

  /** Called when a render lets go of a generation. */
  leave(generation: BrowserGeneration): void {
    generation.inFlight--;
    if (generation.retired && generation.inFlight === 0) void generation.close();
  }

  /**
   * A CDP round trip to the live browser, bounded in time. While the browser that died is being
   * relaunched (right after a crash), the round trip goes to the new one once it is up: a render
   * arriving now would wait for that launch too, so the service can render, and only a relaunch
   * that fails or outlasts the bound answers false.
   */
  async probe(timeoutMs = 2000): Promise<boolean> {
    const timedOut = delay(timeoutMs).then(() => Promise.reject(new Error('probe timed out')));
    try {
      const generation = await Promise.race([this.liveOrRelaunched(), timedOut]);
      if (!generation?.isAlive) return false;
      await Promise.race([generation.browser.version(), timedOut]);
      return true;
    } catch {
      return false;
    }
  }

  /** The current browser if it is up, else the one a relaunch under way brings; undefined when nothing is relaunching it. */
  private async liveOrRelaunched(): Promise<BrowserGeneration | undefined> {
    if (this.current?.isAlive) return this.current;
    return this.launching;
  }

  /** Closes every browser; later calls to generation() fail. */
  async close(): Promise<void> {
    this.closed = true;
    const launching = this.launching?.catch(() => undefined);
    const generations = [this.current, await launching].filter((g): g is BrowserGeneration => g !== undefined);
    await Promise.all(generations.map((generation) => generation.close()));
  }

  private async launch(): Promise<BrowserGeneration> {
    const previous = this.current;
    if (previous && !previous.retired) this.retire(previous, 'browser disconnected');
    const { executable, env, log } = this.options;
    const profileDir = await mkdtemp(path.join(os.tmpdir(), `${PROFILE_PREFIX}${process.pid}-`));
    const noSandbox = needsNoSandbox();
    let browser: Browser;
    try {
      browser = await puppeteer.launch({
        ...launchOptions(executable, { noSandbox, userDataDir: profileDir, proxyServer: this.options.proxyServer }),
        env: { ...process.env, ...env },
        defaultViewport: { width: 1280, height: 900 },
        protocolTimeout: 120_000,
        timeout: 30_000,
      });
    } catch (error) {
      await rm(profileDir, { recursive: true, force: true }).catch(() => undefined);
      this.lastLaunchError = error as Error;
      log.error({ err: firstLine(error) }, 'Chromium failed to start');
      throw new RendererCrashedError(`Chromium failed to start: ${firstLine(error)}`);
    }
    this.lastLaunchError = undefined;
    this.versionText = await browser.version();
    const generation = new BrowserGeneration(this.nextId++, browser, profileDir, this.versionText);
    await closePopups(browser);
    browser.on('disconnected', () => {
      if (generation.retired || this.closed) return;
      log.warn({ browser: generation.id }, 'browser disconnected unexpectedly');
      this.retire(generation, 'browser crashed');
      for (const watcher of this.watchers) watcher.crashed(generation);
      void generation.close();
      // Relaunch now rather than on the next render, so /health recovers without traffic.
      this.generation().catch(() => undefined);
    });
    this.current = generation;
    for (const watcher of this.watchers) watcher.launched(generation);
    log.info({ browser: generation.id, version: this.versionText, sandbox: !noSandbox, pid: browser.process()?.pid }, 'browser launched');
    return generation;
  }
}

const PROFILE_PREFIX = 'quire-profile-';
/**
 * Closes the windows pages open (window.open, target=_blank, noopener or not) once that is safe:
 * nothing prints them, and one left open would outlive its render on a reused context and could
 * write cookies the next render sees. A popup closed while Chromium still makes it can leave its
 * opener's document loading for good (closed at once: 1 render in 12 ran into its timeout; closed
 * 50 ms after it appeared: still seen on a loaded CI machine). So a popup is closed when its opener
 * opens the next one (the opener's script went on past window.open: this one is made), and the
 * render's end closes the rest, before its lane is torn down (chromium-page-source.ts).
 */
async function closePopups(browser: Browser): Promise<void> {
  const session = await browser.target().createCDPSession();
  const close = (targetId: string) => void session.send('Target.closeTarget', { targetId }).catch(() => undefined);
  /** Each opener's newest popup. */
  const newest = new Map<string, string>();
  session.on('Target.targetCreated', ({ targetInfo }: Protocol.Target.TargetCreatedEvent) => {
    const { openerId, targetId, type } = targetInfo;
    if (type !== 'page' || !openerId) return;
    const earlier = newest.get(openerId);
    newest.set(openerId, targetId);
    if (earlier) close(earlier);
  });
  session.on('Target.targetDestroyed', ({ targetId }: Protocol.Target.TargetDestroyedEvent) => {
    for (const [opener, popup] of newest) if (opener === targetId || popup === targetId) newest.delete(opener);
  });
  await session.send('Target.setDiscoverTargets', { discover: true });
}

/**
 * Removes profile folders of servers that died without closing (kill -9): their Chromium exits
 * with them (the pipe closes) but the folder stays. The owner's pid is in the folder name.
 */
async function removeStaleProfiles(): Promise<void> {
  const entries = await readdir(os.tmpdir()).catch(() => [] as string[]);
  await Promise.all(
    entries.map(async (entry) => {
      const owner = new RegExp(`^${PROFILE_PREFIX}(\\d+)-`).exec(entry)?.[1];
      if (owner && !isProcessRunning(Number(owner))) await rm(path.join(os.tmpdir(), entry), { recursive: true, force: true }).catch(() => undefined);
    }),
  );
}

function killGroup(processId: number): void {
  try {
    // puppeteer starts Chromium as a process group leader (detached); end the whole group.
    process.kill(-processId, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0]!;
}
