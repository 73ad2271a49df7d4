// The webContents half of the fake Electron API (tests/helpers/fake-electron.ts): its debugger is a
// CDP session of the window's target in a real headless Chromium that refuses what Electron's
// debugger refuses, and its events are those Electron emits (a crash: 'render-process-gone').

import type { Browser, CDPSession } from 'puppeteer-core';
import type { DebuggerLike } from '../../electron/debugger-session.ts';
import type { RenderWebContents } from '../../electron/render-window.ts';
import type { ElectronPrintOptions } from '../../electron/print-options.ts';

// Any listener fits (never[]): each event's emitter passes the arguments Electron would for it.
type Listener = (...args: never[]) => void;

export class Listeners {
  private readonly map = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.map.set(event, [...(this.map.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.map.get(event) ?? []) (listener as (...args: unknown[]) => void)(...args);
  }
  count(event: string): number {
    return this.map.get(event)?.length ?? 0;
  }
}

/**
 * Commands Electron's webContents.debugger answers with an error: it opens no new pages over CDP
 * and prints only through webContents.printToPDF (electron/electron-page-source.ts), and its
 * Chromium is a full one, without the headless shell's HeadlessExperimental domain.
 */
const ELECTRON_REFUSES: ReadonlyArray<readonly [pattern: RegExp, message: string]> = [
  [/^Target\.createTarget$/, 'Not supported'],
  [/^Page\.printToPDF$/, 'PrintToPDF is not implemented'],
  [/^HeadlessExperimental\./, "wasn't found"],
];

const browserSessions = new WeakMap<Browser, Promise<CDPSession>>();

/**
 * One session on the browser target per browser, kept: sessions opened and detached per window
 * lost puppeteer its browser target when two windows opened at once ("Browser target is not found").
 */
export function browserSessionOf(browser: Browser): Promise<CDPSession> {
  let session = browserSessions.get(browser);
  if (!session) {
    session = browser.target().createCDPSession();
    browserSessions.set(browser, session);
  }
  return session;
}

class FakeDebugger implements DebuggerLike {
  detachEvents = 0;
  private readonly listeners = new Listeners();
  private attached = false;

  constructor(private readonly session: Promise<CDPSession>) {
    void session.then(
      (cdp) => {
        // puppeteer's emitter (mitt) hands every event to '*' listeners: Electron's single 'message' event.
        (cdp as unknown as { on(type: '*', handler: (type: unknown, event: unknown) => void): void }).on('*', (type, event) => {
          if (typeof type === 'string' && type.includes('.')) this.listeners.emit('message', {}, type, event, '');
        });
      },
      () => undefined,
    );
  }

  attach(): void {
    if (this.attached) throw new Error('Debugger is already attached to the target');
    this.attached = true;
  }
  detach(): void {
    this.attached = false;
  }
  isAttached(): boolean {
    return this.attached;
  }
  async sendCommand(method: string, params?: object): Promise<unknown> {
    if (!this.attached) throw new Error('No target available');
    const refused = ELECTRON_REFUSES.find(([pattern]) => pattern.test(method));
    if (refused) throw new Error(`'${method}' ${refused[1]}`);
    return (await this.session).send(method as 'Page.enable', params as undefined);
  }
  on(event: string, listener: Listener): this {
    this.listeners.on(event, listener);
    return this;
  }
  /** What Electron does when the window closes. */
  emitDetach(reason: string): void {
    this.detachEvents++;
    this.attached = false;
    this.listeners.emit('detach', {}, reason);
  }
}

export class FakeWebContents implements RenderWebContents {
  readonly debugger: FakeDebugger;
  readonly events = new Listeners();
  windowOpenHandler: ((details: unknown) => { action: 'deny' }) | undefined;
  printed: ElectronPrintOptions[] = [];
  audioMuted = false;
  webRTCIPHandlingPolicy: string | undefined;

  constructor(private readonly session: Promise<CDPSession>) {
    this.debugger = new FakeDebugger(session);
    void session.then(
      (cdp) => {
        cdp.on('Inspector.targetCrashed', () => this.events.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 9 }));
      },
      () => undefined,
    );
  }

  setAudioMuted(muted: boolean): void {
    this.audioMuted = muted;
  }
  setWebRTCIPHandlingPolicy(policy: string): void {
    this.webRTCIPHandlingPolicy = policy;
  }

  /** Electron's printToPDF, as Chromium's Page.printToPDF with the same settings. */
  async printToPDF(options: ElectronPrintOptions): Promise<Uint8Array> {
    this.printed.push(options);
    const { data } = await (await this.session).send('Page.printToPDF', {
      landscape: options.landscape,
      displayHeaderFooter: options.displayHeaderFooter,
      printBackground: options.printBackground,
      scale: options.scale,
      paperWidth: options.pageSize.width,
      paperHeight: options.pageSize.height,
      marginTop: options.margins.top,
      marginBottom: options.margins.bottom,
      marginLeft: options.margins.left,
      marginRight: options.margins.right,
      pageRanges: options.pageRanges,
      headerTemplate: options.headerTemplate,
      footerTemplate: options.footerTemplate,
      preferCSSPageSize: options.preferCSSPageSize,
      generateTaggedPDF: options.generateTaggedPDF,
      generateDocumentOutline: options.generateDocumentOutline,
    });
    return Buffer.from(data, 'base64');
  }
  setWindowOpenHandler(handler: (details: unknown) => { action: 'deny' }): void {
    this.windowOpenHandler = handler;
  }
  on(event: 'render-process-gone', listener: (event: unknown, details: { reason: string }) => void): this {
    this.events.on(event, listener);
    return this;
  }
  /** Crashes the page's renderer process for real; Chromium then sends Inspector.targetCrashed. */
  crash(): void {
    void this.session.then((cdp) => cdp.send('Page.crash')).catch(() => undefined);
  }
}
