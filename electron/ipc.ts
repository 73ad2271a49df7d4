// Main-process side of the admin window's IPC: one handler per channel of channels.ts, each
// answering only our admin window's top frame on the server's own origin. Takes ipcMain and the
// window as parameters so tests pass fakes.

import { CHANNELS } from './channels.ts';

/** What a handler learns about its caller (Electron's IpcMainInvokeEvent, as far as used here). */
export interface IpcCaller {
  sender: unknown;
  senderFrame: { url: string; parent: unknown } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcCaller, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/** Whether the call comes from the admin window's top frame showing a page of the server's origin. */
export function isTrustedSender(event: IpcCaller, adminContents: unknown, serverOrigin: string): boolean {
  if (adminContents === undefined || event.sender !== adminContents) return false;
  const frame = event.senderFrame;
  if (!frame || frame.parent) return false;
  try {
    return new URL(frame.url).origin === serverOrigin;
  } catch {
    return false;
  }
}

export interface TokenHandOver {
  ipcMain: IpcMainLike;
  adminToken: string;
  serverOrigin: string;
  /** The admin window's webContents now (undefined while it is closed). */
  adminContents: () => unknown;
}

/** Answers CHANNELS.getAdminToken for the admin window only; anything else is refused. */
export function handOverAdminToken({ ipcMain, adminToken, serverOrigin, adminContents }: TokenHandOver): void {
  ipcMain.removeHandler(CHANNELS.getAdminToken);
  ipcMain.handle(CHANNELS.getAdminToken, (event: IpcCaller) => {
    if (!isTrustedSender(event, adminContents(), serverOrigin)) throw new Error('refused: only the admin window may ask for the admin token');
    return adminToken;
  });
}
