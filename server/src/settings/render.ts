// Render settings: Chromium, its slots and queue, and the network guard every page goes through.
// One part of the settings table config.ts merges into SETTINGS (and prints for --help).

import { boolean, integer, list, setting, text } from './parsers.ts';

// Defaults for the renderer come from measurements and the bench
// (docs/decisions.md#two-render-slots-and-a-bounded-queue) on a 2-core machine:
// concurrency above the core count adds latency, not throughput, so 2 slots render while a
// short queue absorbs bursts.
export const renderSettings = {
  chromePath: setting('CHROME_PATH', '', text, 'Chromium executable. Default: the one shipped by @sparticuz/chromium, else a system chromium.'),
  fontsDir: setting('FONTS_DIR', '', text, 'Folder of extra font files (ttf, otf, ttc, woff2) made available to every render.'),
  renderConcurrency: setting('RENDER_CONCURRENCY', 2, integer(1, 64), 'Renders that run at once.'),
  renderQueueSize: setting('RENDER_QUEUE_SIZE', 32, integer(0, 10_000), 'Renders that may wait for a free slot; beyond that the answer is 503 renderer_busy.'),
  renderQueueTimeoutMs: setting('RENDER_QUEUE_TIMEOUT_MS', 10_000, integer(0, 600_000), 'Longest wait for a free slot before answering 503 renderer_busy.'),
  browserRecycleAfter: setting('BROWSER_RECYCLE_AFTER', 5_000, integer(0, 10_000_000), 'Relaunch Chromium after this many renders (0: never).'),
  allowHosts: setting(
    'ALLOW_HOSTS',
    [] as readonly string[],
    list,
    'Comma list of host, host:port or CIDR that pages may reach although private (on-prem use).',
  ),
  denyHosts: setting('DENY_HOSTS', [] as readonly string[], list, 'Comma list of host, host:port or CIDR that pages may never reach.'),
  networkGuard: setting(
    'NETWORK_GUARD',
    true,
    boolean,
    'on: every browser connection goes through the egress proxy that enforces ALLOW_HOSTS/DENY_HOSTS and the private-address guard. off only for trusted content and benchmarks.',
  ),
  dnsTimeoutMs: setting(
    'DNS_TIMEOUT_MS',
    5_000,
    integer(100, 60_000),
    'Longest wait for a DNS answer for the network guard (pages, url, webhooks); answers are cached for their TTL, at most 60 s.',
  ),
} as const;
