// The desktop app's start-up and shutdown order, as plain steps main.ts fills with Electron:
// single-instance lock, app ready, server started and healthy, admin token handed over, tray,
// admin window. Quitting waits for the server to stop (renders drained, within its cap) before
// the process exits. Tests run the order with fake steps.

import type { RunningServer } from './server-host.ts';

export interface QuitEvent {
  preventDefault(): void;
}

export interface DesktopSteps {
  /** app.requestSingleInstanceLock(): false when another Quire already runs. */
  requestSingleInstanceLock(): boolean;
  /** app.on('second-instance'): someone started Quire again. */
  onSecondInstance(listener: () => void): void;
  /** app.on('before-quit'). */
  onQuitRequested(listener: (event: QuitEvent) => void): void;
  whenReady(): Promise<void>;
  startServer(): Promise<RunningServer>;
  handOverToken(server: RunningServer): void;
  showTray(server: RunningServer): void;
  /** Opens the admin window, or brings the open one to the front. */
  openAdminWindow(server: RunningServer): void;
  reportStartupFailure(error: unknown): void;
  /** app.exit(code): ends the process without another before-quit. */
  exit(code: number): void;
}

export type BootOutcome = 'running' | 'another-instance-runs' | 'failed' | 'quit-during-start-up';

/** Runs the start-up list; resolves once the app runs (or why it does not). */
export async function bootDesktop(steps: DesktopSteps): Promise<BootOutcome> {
  if (!steps.requestSingleInstanceLock()) {
    steps.exit(0);
    return 'another-instance-runs';
  }
  let starting: Promise<RunningServer> | undefined;
  let server: RunningServer | undefined;
  let quitting: Promise<void> | undefined;
  steps.onQuitRequested((event) => {
    // Hold the quit until the server has drained; exit() does not come back here.
    event.preventDefault();
    quitting ??= (async () => {
      const running = await starting?.catch(() => undefined);
      await running?.stop();
    })().finally(() => steps.exit(0));
  });
  steps.onSecondInstance(() => {
    if (server && !quitting) steps.openAdminWindow(server);
  });
  await steps.whenReady();
  try {
    starting = steps.startServer();
    server = await starting;
  } catch (error) {
    if (quitting) return 'quit-during-start-up';
    steps.reportStartupFailure(error);
    steps.exit(1);
    return 'failed';
  }
  if (quitting) return 'quit-during-start-up';
  steps.handOverToken(server);
  steps.showTray(server);
  steps.openAdminWindow(server);
  return 'running';
}
