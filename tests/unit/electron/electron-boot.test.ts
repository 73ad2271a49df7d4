// The desktop app's start-up and shutdown order (electron/boot.ts) with fake steps: what runs,
// in which order, and that quitting waits for the server to drain before the process exits.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootDesktop, type DesktopSteps, type QuitEvent } from '../../../electron/boot.ts';
import type { RunningServer } from '../../../electron/server-host.ts';

interface Harness {
  steps: DesktopSteps;
  calls: string[];
  quit(): { prevented: boolean };
  secondInstance(): void;
  exited: Promise<number>;
}

function harness(options: { locked?: boolean; start?: () => Promise<RunningServer>; stop?: () => Promise<'stopped' | 'timed-out'> } = {}): Harness {
  const calls: string[] = [];
  let onQuit: ((event: QuitEvent) => void) | undefined;
  let onSecond: (() => void) | undefined;
  let exit!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (exit = resolve));
  const server: RunningServer = {
    url: 'http://127.0.0.1:4100',
    adminToken: 'adm_token',
    port: 4100,
    dataDir: '/tmp/data',
    stop: async () => {
      calls.push('stop server');
      return (await options.stop?.()) ?? 'stopped';
    },
  };
  const steps: DesktopSteps = {
    requestSingleInstanceLock: () => {
      calls.push('lock');
      return options.locked ?? true;
    },
    onSecondInstance: (listener) => (onSecond = listener),
    onQuitRequested: (listener) => (onQuit = listener),
    whenReady: async () => void calls.push('ready'),
    startServer: async () => {
      calls.push('start server');
      return options.start ? options.start() : server;
    },
    handOverToken: (running) => void calls.push(`hand over ${running.adminToken}`),
    showTray: (running) => void calls.push(`tray ${running.url}`),
    openAdminWindow: (running) => void calls.push(`window ${running.url}`),
    reportStartupFailure: (error) => void calls.push(`report ${(error as Error).message}`),
    exit: (code) => {
      calls.push(`exit ${code}`);
      exit(code);
    },
  };
  return {
    steps,
    calls,
    exited,
    quit: () => {
      const event = { prevented: false, preventDefault: () => (event.prevented = true) };
      onQuit?.(event);
      return event;
    },
    secondInstance: () => onSecond?.(),
  };
}

test('start-up runs lock, ready, server (healthy), token hand-over, tray, admin window, in that order', async () => {
  const { steps, calls } = harness();
  assert.equal(await bootDesktop(steps), 'running');
  assert.deepEqual(calls, ['lock', 'ready', 'start server', 'hand over adm_token', 'tray http://127.0.0.1:4100', 'window http://127.0.0.1:4100']);
});

test('a second instance exits at once without starting a server, and the first one shows its window', async () => {
  const second = harness({ locked: false });
  assert.equal(await bootDesktop(second.steps), 'another-instance-runs');
  assert.deepEqual(second.calls, ['lock', 'exit 0']);

  const first = harness();
  await bootDesktop(first.steps);
  first.secondInstance();
  assert.equal(first.calls.at(-1), 'window http://127.0.0.1:4100');
});

test('a server that cannot start is reported and the app exits with 1, before any window', async () => {
  const { steps, calls } = harness({ start: () => Promise.reject(new Error('port 4000 on 127.0.0.1 is in use')) });
  assert.equal(await bootDesktop(steps), 'failed');
  assert.deepEqual(calls, ['lock', 'ready', 'start server', 'report port 4000 on 127.0.0.1 is in use', 'exit 1']);
});

test('quitting holds the quit until the server has drained, then exits 0; asking again does not stop it twice', async () => {
  const { promise: drained, resolve: finishDrain } = Promise.withResolvers<void>();
  const h = harness({ stop: () => drained.then(() => 'stopped' as const) });
  await bootDesktop(h.steps);
  assert.equal(h.quit().prevented, true);
  assert.equal(h.quit().prevented, true);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(h.calls.filter((call) => call === 'stop server').length, 1);
  assert.ok(!h.calls.includes('exit 0'), 'no exit while renders drain');
  finishDrain();
  assert.equal(await h.exited, 0);
  assert.deepEqual(h.calls.slice(-2), ['stop server', 'exit 0']);
});

test('a quit during start-up waits for the server, stops it, exits, and opens no window', async () => {
  let started!: (server: RunningServer) => void;
  const h = harness({ start: () => new Promise<RunningServer>((resolve) => (started = resolve)) });
  const booting = bootDesktop(h.steps);
  await new Promise((resolve) => setTimeout(resolve, 10));
  h.quit();
  started({
    url: 'http://127.0.0.1:1',
    adminToken: 't',
    port: 1,
    dataDir: '/d',
    stop: async () => {
      h.calls.push('stop server');
      return 'stopped';
    },
  });
  assert.equal(await booting, 'quit-during-start-up');
  assert.equal(await h.exited, 0);
  assert.ok(h.calls.includes('stop server'));
  assert.ok(!h.calls.some((call) => call.startsWith('window') || call.startsWith('tray')));
});
