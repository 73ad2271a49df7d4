// Issue 11's settings as the environment gives them: TRUST_PROXY (none, hops, or proxy CIDRs)
// and the playground's share of the render slots and its time cap.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../../../server/src/config.ts';
import { playgroundShare } from '../../../../server/src/services/render/playground.ts';

test('TRUST_PROXY is none by default, a hop count, or a list of proxy addresses and CIDRs', () => {
  assert.equal(loadConfig({}).trustProxy, false);
  assert.equal(loadConfig({ TRUST_PROXY: 'none' }).trustProxy, false);
  assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
  assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,::1' }).trustProxy, ['10.0.0.0/8', '192.0.2.7', '::1']);
  assert.deepEqual(loadConfig({}, ['--trust-proxy', '1']).trustProxy, 1);
  assert.throws(
    () => loadConfig({ TRUST_PROXY: 'proxy.example' }),
    (error: unknown) => error instanceof ConfigError && /TRUST_PROXY must be none, a hop count/.test(error.message),
  );
});

test('the playground share and time cap default to 1 slot and 15 s', () => {
  const config = loadConfig({});
  assert.equal(config.playgroundConcurrency, 1);
  assert.equal(config.playgroundMaxTimeoutMs, 15_000);
  assert.throws(() => loadConfig({ PLAYGROUND_MAX_TIMEOUT_MS: '500' }), /PLAYGROUND_MAX_TIMEOUT_MS must be a whole number from 1000 to 60000/);
});

test('the playground never gets every render slot when there are two or more', () => {
  assert.equal(playgroundShare(1, 2), 1);
  assert.equal(playgroundShare(8, 2), 1, 'PLAYGROUND_CONCURRENCY above the slots still leaves one for keyed renders');
  assert.equal(playgroundShare(8, 4), 3);
  assert.equal(playgroundShare(2, 8), 2);
  assert.equal(playgroundShare(4, 1), 1, 'with a single slot the playground can only share it');
});
