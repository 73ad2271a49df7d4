// The admin window's preload (sandboxed, context-isolated): exposes a few named functions as
// window.quire, never a generic IPC pass-through. Bundled on its own as CommonJS (sandboxed
// preloads cannot load ES modules), so it imports nothing but electron and channels.ts.

import { contextBridge, ipcRenderer } from 'electron';
import { CHANNELS, DESKTOP_API_NAME, type DesktopApi } from './channels.ts';

const api: DesktopApi = {
  getAdminToken: () => ipcRenderer.invoke(CHANNELS.getAdminToken) as Promise<string>,
  isDesktop: true,
};

contextBridge.exposeInMainWorld(DESKTOP_API_NAME, api);
