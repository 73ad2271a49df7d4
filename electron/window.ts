// The admin window: its options (context isolation, sandbox, no Node, our preload) and its rules.
// Only the server's own origin is shown in it; links and window.open to other http(s) addresses
// open in the system browser, anything else is refused; the window's session loads nothing from
// anywhere but the server and grants no permission but writing the clipboard.
// Electron comes in as parameters (AdminWindowApi) so tests pass fakes.

export interface AdminWindowOptions {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  title: string;
  icon?: string;
  webPreferences: {
    preload: string;
    sandbox: true;
    contextIsolation: true;
    nodeIntegration: false;
    nodeIntegrationInSubFrames: false;
    webviewTag: false;
    webSecurity: true;
    allowRunningInsecureContent: false;
    navigateOnDragDrop: false;
    spellcheck: false;
  };
}

export function adminWindowOptions(preload: string, icon?: string): AdminWindowOptions {
  return {
    width: 1200,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    // Shown once the page is ready, so the user never sees an empty frame.
    show: false,
    title: 'Quire',
    icon,
    webPreferences: {
      preload,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}

export type NavigationDecision = 'allow' | 'open-external' | 'deny';

/** Where a navigation of the admin window may go: our origin stays, other http(s) goes to the browser. */
export function decideNavigation(target: string, serverOrigin: string): NavigationDecision {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'deny';
  }
  if (url.origin === serverOrigin) return 'allow';
  if (url.protocol === 'http:' || url.protocol === 'https:') return 'open-external';
  return 'deny';
}

/** Requests the admin window's session may make: the server, and the page's own data:/blob: URLs. */
export function isAllowedAdminRequest(target: string, serverOrigin: string): boolean {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'devtools:') return true;
  return url.origin === serverOrigin;
}

/** Permissions the admin page may have: writing the clipboard (its copy buttons), from our origin only. */
export function isAllowedAdminPermission(permission: string, requestingUrl: string, serverOrigin: string): boolean {
  return permission === 'clipboard-sanitized-write' && decideNavigation(requestingUrl, serverOrigin) === 'allow';
}

type NavigationListener = (event: { preventDefault(): void; url?: string }, url: string) => void;

export interface AdminContents {
  on(event: 'will-navigate' | 'will-redirect', listener: NavigationListener): unknown;
  on(event: 'render-process-gone', listener: (event: unknown, details: { reason: string; exitCode: number }) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  reload(): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  getURL(): string;
  readonly session: AdminSession;
}

export interface AdminSession {
  webRequest: {
    onBeforeRequest(listener: (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void): void;
  };
  setPermissionRequestHandler(
    handler: (
      webContents: { getURL?(): string } | null,
      permission: string,
      callback: (granted: boolean) => void,
      details: { requestingUrl?: string } | undefined,
    ) => void,
  ): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string, requestingOrigin: string, details: unknown) => boolean): void;
}

export interface AdminWindow {
  readonly webContents: AdminContents;
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
  show(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
}

export interface AdminWindowApi {
  createWindow(options: AdminWindowOptions): AdminWindow;
  /** shell.openExternal */
  openExternal(url: string): Promise<void>;
  /** Told when the window's page process is gone, and whether it was reloaded. */
  onPageGone?(details: { reason: string; exitCode: number }, reloaded: boolean): void;
  now?(): number;
}

/** A second crash within this long of a reload is left alone: reloading would only loop. */
export const CRASH_RELOAD_WINDOW_MS = 60_000;

/**
 * Reloads the admin page when its process dies (crash, out of memory, killed), so the window is not
 * left blank; a page that dies again soon after its reload stays down (the menu reopens it).
 */
export function reloadAfterCrash(window: AdminWindow, api: Pick<AdminWindowApi, 'onPageGone' | 'now'>): void {
  let lastReload = -Infinity;
  window.webContents.on('render-process-gone', (_event, details) => {
    if (window.isDestroyed() || details.reason === 'clean-exit') return;
    const now = api.now?.() ?? Date.now();
    const reload = now - lastReload > CRASH_RELOAD_WINDOW_MS;
    if (reload) {
      lastReload = now;
      window.webContents.reload();
    }
    api.onPageGone?.(details, reload);
  });
}

/** Applies the navigation, popup, request and permission rules of the admin window. */
export function applyAdminWindowRules(contents: AdminContents, serverOrigin: string, openExternal: (url: string) => Promise<void>): void {
  const guard: NavigationListener = (event, url) => {
    const target = event.url ?? url;
    const decision = decideNavigation(target, serverOrigin);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'open-external') void openExternal(target).catch(() => undefined);
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (decideNavigation(url, serverOrigin) !== 'deny') void openExternal(url).catch(() => undefined);
    return { action: 'deny' };
  });
  contents.session.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAllowedAdminRequest(details.url, serverOrigin) }));
  contents.session.setPermissionRequestHandler((webContents, permission, callback, details) =>
    callback(isAllowedAdminPermission(String(permission), String(details?.requestingUrl ?? webContents?.getURL?.() ?? ''), serverOrigin)),
  );
  contents.session.setPermissionCheckHandler((_webContents, permission, requestingOrigin) =>
    isAllowedAdminPermission(String(permission), requestingOrigin, serverOrigin),
  );
}

/** Opens the admin page of the server in a new window with its rules; shows it when ready. */
export function openAdminWindow(api: AdminWindowApi, serverUrl: string, options: AdminWindowOptions): AdminWindow {
  const serverOrigin = new URL(serverUrl).origin;
  const window = api.createWindow(options);
  applyAdminWindowRules(window.webContents, serverOrigin, api.openExternal);
  reloadAfterCrash(window, api);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(`${serverOrigin}/admin`).catch(() => undefined);
  return window;
}

/** Brings an existing window to the front. */
export function focusWindow(window: AdminWindow): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
