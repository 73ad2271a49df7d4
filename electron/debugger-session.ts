// Adapts Electron's webContents.debugger (sendCommand + one 'message' event for every protocol
// event) to the CdpSession that render/cdp-page.ts drives, so the render pipeline is the same
// code on Electron as on headless Chromium. It does not import Electron: it takes the debugger.
// The session ends when the debugger detaches (window closed) or the page's renderer crashes:
// Electron then keeps the debugger attached and sends Inspector.targetCrashed, so that event
// ends it too, and every command and wait in flight fails at once instead of at the render timeout.

import type { CdpSession } from '../server/src/render/cdp-session.ts';
import { RendererCrashedError } from '../server/src/render/errors.ts';

/** The part of Electron's Debugger used here (real Electron's satisfies it; tests pass a fake). */
export interface DebuggerLike {
  attach(protocolVersion?: string): void;
  detach(): void;
  isAttached(): boolean;
  sendCommand(method: string, commandParams?: object, sessionId?: string): Promise<unknown>;
  on(event: 'message', listener: (event: unknown, method: string, params: unknown, sessionId: string) => void): unknown;
  on(event: 'detach', listener: (event: unknown, reason: string) => void): unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: CdpSession's handler type: event params are untyped at the protocol boundary
type Handler = (params: any) => void;

export class DebuggerSession implements CdpSession {
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly pending = new Set<(error: Error) => void>();
  private endError: Error | undefined;
  private readonly closedSignal: Promise<never>;
  private signalClosed!: (error: Error) => void;

  constructor(private readonly target: DebuggerLike) {
    this.closedSignal = new Promise<never>((_, reject) => (this.signalClosed = reject));
    this.closedSignal.catch(() => undefined);
    target.on('message', (_event, method, params, sessionId) => {
      // Events of child sessions (workers, frames attached by auto-attach) are not ours.
      if (sessionId) return;
      // A crash of the page's own renderer, as CdpPage reports it on the server: the render is
      // retried once, and a page that crashes twice gets page_crashed (render/renderer.ts).
      if (method === 'Inspector.targetCrashed')
        return this.end("the page's renderer crashed", new RendererCrashedError("the page's renderer process crashed", 'page'));
      for (const handler of [...(this.handlers.get(method) ?? [])]) handler(params);
    });
    target.on('detach', (_event, reason) => this.end(reason || 'detached'));
  }

  private end(reason: string, error: Error = closedError(reason)): void {
    if (this.endError) return;
    this.endError = error;
    for (const reject of this.pending) reject(error);
    this.pending.clear();
    this.signalClosed(error);
  }

  /** The work, or the session's end if that comes first (for waits that are not commands). */
  untilClosed<T>(work: Promise<T>): Promise<T> {
    if (this.endError) return Promise.reject(this.endError);
    return Promise.race([work, this.closedSignal]);
  }

  /** Attaches to the page's target; throws if another debugger (an open DevTools) holds it. */
  attach(): void {
    if (!this.target.isAttached()) this.target.attach('1.3');
  }

  get isClosed(): boolean {
    return this.endError !== undefined;
  }

  // biome-ignore lint/suspicious/noExplicitAny: CdpSession's send: the result type depends on the method, callers cast it
  send(method: string, params: object = {}): Promise<any> {
    if (this.endError) return Promise.reject(this.endError);
    // A command in flight when the page dies would otherwise never settle: detach rejects it.
    return new Promise((resolve, reject) => {
      this.pending.add(reject);
      this.target
        .sendCommand(method, params)
        .then(resolve, reject)
        .finally(() => this.pending.delete(reject));
    });
  }

  on(event: string, handler: Handler): void {
    let set = this.handlers.get(event);
    if (!set) {
      set = new Set();
      this.handlers.set(event, set);
    }
    set.add(handler);
  }

  off(event: string, handler: Handler): void {
    this.handlers.get(event)?.delete(handler);
  }

  detach(): void {
    try {
      if (this.target.isAttached()) this.target.detach();
    } catch {
      // The webContents is already gone.
    }
  }
}

// The renderer maps "Session closed" to RendererCrashedError (503, safe to retry), as it does for puppeteer's.
function closedError(reason: string): Error {
  return new Error(`Session closed: ${reason}`);
}
