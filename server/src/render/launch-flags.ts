// The reviewed Chromium command line. Puppeteer's default flags are not used (ignoreDefaultArgs):
// every switch here was chosen for a service that renders strangers' HTML, and each says why.
// Never added: --single-process, --disable-web-security, --allow-running-insecure-content,
// --disable-site-isolation-trials or anything else that weakens isolation
// (docs/decisions.md#the-npm-headless-shell-with-our-own-flag-list:
// @sparticuz/chromium's preset carries several of these; it is not used).

import type { LaunchOptions } from 'puppeteer-core';
import type { ChromiumExecutable } from './chromium-path.ts';

export interface LaunchFlagInput {
  isHeadlessShell: boolean;
  /** Chromium refuses to start its sandbox as root; see needsNoSandbox. */
  noSandbox: boolean;
  userDataDir: string;
  /** Egress proxy every page request goes through (the network guard), when there is one. */
  proxyServer?: string;
}

const REVIEWED_FLAGS: ReadonlyArray<readonly [flag: string, why: string]> = [
  ['--disable-gpu', 'no GPU on servers; avoids a GPU process that crash-loops'],
  ['--disable-dev-shm-usage', 'containers give /dev/shm 64 MB; large pages would crash the renderer'],
  ['--no-first-run', 'no first-run UI or profile import'],
  ['--no-default-browser-check', 'no default-browser prompt'],
  ['--disable-background-networking', 'no calls home (updates, safe browsing lists); the network is closed anyway'],
  ['--disable-component-update', 'no component downloads'],
  ['--disable-sync', 'no account sync'],
  ['--disable-default-apps', 'no bundled apps'],
  ['--disable-extensions', 'no extensions'],
  ['--disable-component-extensions-with-background-pages', 'no built-in extension background pages'],
  ['--disable-domain-reliability', 'no reliability beacons'],
  ['--disable-client-side-phishing-detection', 'no phishing model downloads'],
  ['--disable-breakpad', 'no crash uploads'],
  ['--disable-crash-reporter', 'no crash uploads'],
  ['--metrics-recording-only', 'no metrics uploads'],
  ['--password-store=basic', 'no system keyring prompts'],
  ['--use-mock-keychain', 'no macOS keychain prompts'],
  ['--mute-audio', 'pages may play media; nobody listens'],
  ['--hide-scrollbars', 'screen-media renders should not show scrollbars'],
  ['--force-color-profile=srgb', 'the same colours on every machine'],
  ['--font-render-hinting=none', 'glyph advances independent of hinting, so text spacing matches across machines'],
  ['--disable-background-timer-throttling', 'pages rendering side by side are all "background"; throttled timers would stall them'],
  ['--disable-renderer-backgrounding', 'same: background renderers would be deprioritised'],
  ['--disable-backgrounding-occluded-windows', 'same, for occluded windows'],
  ['--disable-hang-monitor', 'a busy page is our timeout to handle, not a hang dialog'],
  ['--disable-ipc-flooding-protection', 'print and navigation bursts are expected'],
  ['--disable-prompt-on-repost', 'no dialogs'],
  ['--no-pings', 'no hyperlink auditing pings'],
  ['--deny-permission-prompts', 'permission requests (camera, geolocation, notifications) are refused'],
  ['--force-webrtc-ip-handling-policy=disable_non_proxied_udp', 'WebRTC must not reveal or reach local addresses (network guard)'],
  ['--disable-quic', 'HTTP/3 runs over UDP, which an HTTP proxy cannot carry: every connection must be a TCP one through the network guard'],
];

// Chromium features switched off, each for a reason. None of them is site isolation: every render
// still gets its own origin, and cross-site frames their own processes.
const DISABLED_FEATURES: ReadonlyArray<readonly [feature: string, why: string]> = [
  [
    'RenderDocument',
    'a new frame host per same-site navigation costs 30-45 ms of CPU per render (bench/); it is hardening against frame-host reuse bugs, not isolation between sites, and each render is a fresh origin anyway',
  ],
  ['BackForwardCache', 'a page navigated away from must die, not be kept alive with its timers'],
  [
    'LocalNetworkAccessChecks',
    'render documents are served from memory and count as "public", so the browser would refuse sub-resources on ALLOW_HOSTS intranet hosts; the network guard decides reachability instead',
  ],
  ['Translate', 'no translate service'],
  ['MediaRouter', 'no cast discovery on the local network'],
  ['DialMediaRouteProvider', 'no DIAL discovery on the local network'],
  ['OptimizationHints', 'no hint downloads'],
  ['AcceptCHFrame', 'no client-hint restarts of navigations'],
  ['InterestFeedContentSuggestions', 'no feed'],
  ['AutofillServerCommunication', 'no autofill server'],
  ['CalculateNativeWinOcclusion', 'no occlusion tracking'],
];

const RUN_ALL_COMPOSITOR_STAGES = '--run-all-compositor-stages-before-draw';

/** Whether Chromium must run without its sandbox: it refuses to start one as root. */
export function needsNoSandbox(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The full command line for one launch. */
export function launchFlags(input: LaunchFlagInput): string[] {
  const flags = [
    input.isHeadlessShell ? '--headless' : '--headless=new',
    `--user-data-dir=${input.userDataDir}`,
    ...REVIEWED_FLAGS.map(([flag]) => flag),
    `--disable-features=${DISABLED_FEATURES.map(([feature]) => feature).join(',')}`,
  ];
  // The sandbox is a second wall around renderer processes; only dropped where Chromium
  // cannot run it (as root). The start-up log says so.
  if (input.noSandbox) flags.push('--no-sandbox');
  // Lets a target created with begin-frame control be drawn on request (HeadlessExperimental.beginFrame),
  // which is how a page on a virtual clock gets its frames (virtual-clock.ts). Headless shell only;
  // other targets keep drawing on their own (bench/experiments/vt-begin-frame.ts).
  if (input.isHeadlessShell) flags.push(RUN_ALL_COMPOSITOR_STAGES);
  if (input.proxyServer) {
    // '<-loopback>' removes Chromium's built-in bypass so loopback requests go through the guard too.
    flags.push(`--proxy-server=${input.proxyServer}`, '--proxy-bypass-list=<-loopback>');
    // With a proxy Chromium resolves no page host itself; this makes sure it cannot: every name
    // but the proxy's own address fails in Chromium's resolver (no DNS prefetch, no lookups by
    // anything that would go around the proxy).
    flags.push(`--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE ${new URL(input.proxyServer).hostname}`);
  }
  return flags;
}

/**
 * Puppeteer's launch options for our flag list: the one launch the renderer's browser host and the
 * tests' stand-in for Electron (tests/helpers/fake-electron.ts) share. A pipe, not a TCP port, so
 * nothing on the machine can attach to the browser; no about:blank on the command line, so there is
 * no first tab to wait for; shutdown is the caller's (main.ts drains renders first), not Puppeteer's.
 */
export function launchOptions(executable: ChromiumExecutable, flags: Omit<LaunchFlagInput, 'isHeadlessShell'>): LaunchOptions {
  return {
    executablePath: executable.path,
    ignoreDefaultArgs: true,
    args: launchFlags({ ...flags, isHeadlessShell: executable.isHeadlessShell }),
    pipe: true,
    waitForInitialPage: false,
    headless: executable.isHeadlessShell ? 'shell' : true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  };
}

export const FLAG_REASONS = REVIEWED_FLAGS;
export const DISABLED_FEATURE_REASONS = DISABLED_FEATURES;
