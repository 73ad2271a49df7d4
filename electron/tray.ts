// The tray icon and the application menu: the API URL, copy it, open the admin window, the data
// and logs folders, About (the version, on every system), quit. Menus are built from plain
// templates so tests read them without Electron.

export interface ShellActions {
  /** Base URL of the running server. */
  apiAddress: string;
  copyText(text: string): void;
  openAdminWindow(): void;
  openDataFolder(): void;
  openLogsFolder(): void;
  /** Opens WATCH_DIR; absent when no hot folder is set. */
  openHotFolder?(): void;
  showAbout(): void;
  quit(): void;
}

/** Electron's MenuItemConstructorOptions, as far as used here. */
export interface MenuItemTemplate {
  label?: string;
  type?: 'separator' | 'normal';
  role?: 'appMenu' | 'editMenu' | 'windowMenu' | 'quit';
  enabled?: boolean;
  click?: () => void;
  submenu?: MenuItemTemplate[];
}

export function trayMenuTemplate(actions: ShellActions): MenuItemTemplate[] {
  return [
    { label: `API: ${actions.apiAddress}`, enabled: false },
    { label: 'Copy API URL', click: () => actions.copyText(actions.apiAddress) },
    { type: 'separator' },
    { label: 'Open Quire', click: () => actions.openAdminWindow() },
    { label: 'Open data folder', click: () => actions.openDataFolder() },
    { label: 'Open logs folder', click: () => actions.openLogsFolder() },
    ...(actions.openHotFolder ? [{ label: 'Open hot folder', click: () => actions.openHotFolder?.() }] : []),
    { label: 'About Quire', click: () => actions.showAbout() },
    { type: 'separator' },
    { label: 'Quit Quire', click: () => actions.quit() },
  ];
}

/** The window menu bar: the same commands, plus Edit (copy and paste need it on macOS). */
export function applicationMenuTemplate(actions: ShellActions, isMac: boolean): MenuItemTemplate[] {
  const quire: MenuItemTemplate = { label: 'Quire', submenu: trayMenuTemplate(actions) };
  return [...(isMac ? [{ role: 'appMenu' as const }] : []), quire, { role: 'editMenu' }, { role: 'windowMenu' }];
}

export interface TrayLike {
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
}

export interface TrayApi {
  createTray(iconPath: string): TrayLike;
  buildMenu(template: MenuItemTemplate[]): unknown;
}

/** Puts Quire in the tray; clicking the icon opens the admin window. Keep the result referenced. */
export function showTray(api: TrayApi, iconPath: string, actions: ShellActions): TrayLike {
  const tray = api.createTray(iconPath);
  tray.setToolTip(`Quire — API at ${actions.apiAddress}`);
  tray.setContextMenu(api.buildMenu(trayMenuTemplate(actions)));
  tray.on('click', () => actions.openAdminWindow());
  return tray;
}

export interface AboutFacts {
  version: string;
  electron: string;
  chrome: string;
  node: string;
  apiUrl: string;
  dataDir: string;
  logsDir: string;
}

/** The About box: a dialog of our own, since Electron's about panel shows no version on Windows. */
export function aboutMessage(facts: AboutFacts): { title: string; message: string; detail: string } {
  return {
    title: 'About Quire',
    message: `Quire ${facts.version}`,
    detail: [
      `Electron ${facts.electron}, Chromium ${facts.chrome}, Node ${facts.node}`,
      `API: ${facts.apiUrl}`,
      `Data: ${facts.dataDir}`,
      `Logs: ${facts.logsDir}`,
    ].join('\n'),
  };
}
