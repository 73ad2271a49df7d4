// The one shape of a Chrome DevTools Protocol session the render modules talk to: headless
// Chromium's (puppeteer's CDPSession) or Electron's webContents debugger (electron/debugger-session.ts).

/** The part of a CDP session the renderer uses (puppeteer's CDPSession has it; so can Electron's debugger). */
export interface CdpSession {
  send(method: string, params?: object): Promise<any>;
  on(event: string, handler: (params: any) => void): void;
  off(event: string, handler: (params: any) => void): void;
}
