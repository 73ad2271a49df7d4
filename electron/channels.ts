// The only IPC between the admin window and the main process: channel names in one map and the
// shape of what the preload exposes. Shared by preload.ts (bundled alone) and ipc.ts, so keep it
// free of imports.

/** Every channel the preload may invoke. Nothing else is handled. */
export const CHANNELS = {
  getAdminToken: 'quire:get-admin-token',
} as const;

/** The global name under which the preload exposes DesktopApi to the admin page (window.quire). */
export const DESKTOP_API_NAME = 'quire';

/** What the admin page can call when it runs inside the desktop app. */
export interface DesktopApi {
  /** The admin token of the server this window was loaded from. */
  getAdminToken(): Promise<string>;
  /** Always true: lets the page tell the desktop window from a browser tab. */
  readonly isDesktop: true;
}
