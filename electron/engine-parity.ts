// What makes Electron's Chromium render like the headless server's (render/launch-flags.ts):
// every reviewed flag of the server is either applied here (an app-wide switch before the app is
// ready, or a per-window webContents setting) or named as not applying, with why. A unit test
// holds this table against launch-flags.ts, so a flag added there needs a decision here.

import { DISABLED_FEATURE_REASONS, FLAG_REASONS } from '../server/src/render/launch-flags.ts';

export type FlagParity =
  | { how: 'switch' }
  /** Electron does not read the switch for this; a webContents call on every render window does it. */
  | { how: 'per-window'; via: string }
  | { how: 'not-applicable'; why: string };

/** Every flag of launch-flags.ts (its name without value) and how the desktop app matches it. */
export const FLAG_PARITY: Readonly<Record<string, FlagParity>> = {
  '--disable-gpu': { how: 'not-applicable', why: 'a desktop has a GPU; printing does not use it' },
  '--disable-dev-shm-usage': { how: 'not-applicable', why: 'no 64 MB /dev/shm on a workstation' },
  '--no-first-run': { how: 'not-applicable', why: 'Electron has no first-run UI' },
  '--no-default-browser-check': { how: 'not-applicable', why: 'Electron is no browser' },
  '--disable-background-networking': { how: 'not-applicable', why: "Electron has none of Chrome's background services" },
  '--disable-component-update': { how: 'not-applicable', why: 'Electron has no component updater' },
  '--disable-sync': { how: 'not-applicable', why: 'Electron has no sync' },
  '--disable-default-apps': { how: 'not-applicable', why: 'Electron has no default apps' },
  '--disable-extensions': { how: 'not-applicable', why: 'Electron loads no extensions unless asked' },
  '--disable-component-extensions-with-background-pages': { how: 'not-applicable', why: 'Electron has no component extensions' },
  '--disable-domain-reliability': { how: 'not-applicable', why: 'Electron sends no reliability beacons' },
  '--disable-client-side-phishing-detection': { how: 'not-applicable', why: 'Electron has no safe browsing' },
  '--disable-breakpad': { how: 'not-applicable', why: 'Electron uploads crashes only if crashReporter.start is called (it is not)' },
  '--disable-crash-reporter': { how: 'not-applicable', why: 'same' },
  '--metrics-recording-only': { how: 'not-applicable', why: 'Electron has no metrics upload' },
  '--password-store': { how: 'not-applicable', why: 'the render partitions store no passwords' },
  '--use-mock-keychain': { how: 'not-applicable', why: 'the render partitions are in memory: no keychain' },
  '--mute-audio': { how: 'per-window', via: 'webContents.setAudioMuted(true): the switch would mute the admin window too' },
  '--hide-scrollbars': { how: 'switch' },
  '--force-color-profile': { how: 'switch' },
  '--font-render-hinting': { how: 'switch' },
  '--disable-background-timer-throttling': { how: 'switch' },
  '--disable-renderer-backgrounding': { how: 'switch' },
  '--disable-backgrounding-occluded-windows': { how: 'switch' },
  '--disable-hang-monitor': { how: 'not-applicable', why: 'Electron shows no hang dialog; the render budget ends a busy page' },
  '--disable-ipc-flooding-protection': { how: 'switch' },
  '--disable-prompt-on-repost': { how: 'not-applicable', why: 'render windows have dialogs off (disableDialogs)' },
  '--no-pings': { how: 'switch' },
  '--deny-permission-prompts': { how: 'not-applicable', why: "each partition's permission handlers refuse every request" },
  '--force-webrtc-ip-handling-policy': { how: 'per-window', via: 'webContents.setWebRTCIPHandlingPolicy: Electron does not read the switch' },
  '--disable-quic': { how: 'switch' },
};

/** The flag's name without its value: "--force-color-profile=srgb" -> "--force-color-profile". */
export function flagName(flag: string): string {
  return flag.split('=', 1)[0]!;
}

/**
 * Chromium switches for the whole app, appended before it is ready: the server's flags Electron
 * reads (with the server's values), its disabled features, and with the guard on no host
 * resolution by Chromium itself (every page request goes through the proxy; the admin window and
 * the proxy are on 127.0.0.1, which stays reachable).
 */
export function appSwitches(networkGuard: boolean): ReadonlyArray<readonly [name: string, value?: string]> {
  const switches: (readonly [string, string?])[] = [];
  for (const [flag] of FLAG_REASONS) {
    if (FLAG_PARITY[flagName(flag)]?.how !== 'switch') continue;
    const [name, value] = flag.replace(/^--/, '').split(/=(.*)/s, 2) as [string, string | undefined];
    switches.push(value === undefined ? [name] : [name, value]);
  }
  // Electron merges these with its own disabled features (LocalNetworkAccessChecks among them:
  // without it pages from memory may not reach ALLOW_HOSTS intranet hosts).
  switches.push(['disable-features', DISABLED_FEATURE_REASONS.map(([feature]) => feature).join(',')]);
  if (networkGuard) switches.push(['host-resolver-rules', 'MAP * ~NOTFOUND , EXCLUDE 127.0.0.1']);
  return switches;
}

/** The webContents calls every render window gets (the per-window rows of FLAG_PARITY). */
export interface ParityContents {
  setAudioMuted(muted: boolean): void;
  setWebRTCIPHandlingPolicy(policy: 'disable_non_proxied_udp'): void;
}

/** Mutes the window and keeps WebRTC from sending UDP around the guard's proxy. */
export function applyWindowParity(contents: ParityContents): void {
  // A hidden window's <audio autoplay> would play through the user's speakers.
  contents.setAudioMuted(true);
  contents.setWebRTCIPHandlingPolicy('disable_non_proxied_udp');
}
