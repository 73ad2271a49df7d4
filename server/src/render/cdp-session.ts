// The one shape of a Chrome DevTools Protocol session the render modules talk to: headless
// Chromium's (puppeteer's CDPSession) or Electron's webContents debugger (electron/debugger-session.ts).

/** The part of a CDP session the renderer uses (puppeteer's CDPSession has it; so can Electron's debugger). */
export interface CdpSession {
  // biome-ignore lint/suspicious/noExplicitAny: result type depends on the method; callers cast it to its Protocol type
  send(method: string, params?: object): Promise<any>;
  // biome-ignore lint/suspicious/noExplicitAny: event params depend on the event; handlers declare the Protocol shape they read
  on(event: string, handler: (params: any) => void): void;
  // biome-ignore lint/suspicious/noExplicitAny: same handler type as on()
  off(event: string, handler: (params: any) => void): void;
}
