// Playground settings: the public no-key renders and their limits.
// One part of the settings table config.ts merges into SETTINGS (and prints for --help).

import { boolean, integer, setting } from './parsers.ts';

export const playgroundSettings = {
  playgroundEnabled: setting(
    'PLAYGROUND_ENABLED',
    true,
    boolean,
    'Serve the public playground (POST /v1/playground/pdf and /playground): renders with no key.',
  ),
  playgroundRateLimit: setting(
    'PLAYGROUND_RATE_LIMIT',
    10,
    integer(1, 10_000),
    'Playground renders allowed per client address per minute; beyond that: 429 rate_limited.',
  ),
  playgroundConcurrency: setting(
    'PLAYGROUND_CONCURRENCY',
    1,
    integer(1, 64),
    'Render slots the playground may use at once, all callers together; never all RENDER_CONCURRENCY slots when there are two or more.',
  ),
  playgroundMaxTimeoutMs: setting(
    'PLAYGROUND_MAX_TIMEOUT_MS',
    15_000,
    integer(1000, 60_000),
    'Longest a playground render may take: a larger options.timeout_ms is lowered to this.',
  ),
} as const;
