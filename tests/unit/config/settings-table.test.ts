// The settings are declared by group (server/src/settings/*.ts) and merged into one table in
// config.ts: a key or variable declared in two groups would silently lose one of them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SETTINGS, flagName, helpText, loadConfig } from '../../../server/src/config.ts';
import { serverSettings } from '../../../server/src/settings/server.ts';
import { renderSettings } from '../../../server/src/settings/render.ts';
import { officeSettings } from '../../../server/src/settings/office.ts';
import { outputSettings } from '../../../server/src/settings/output.ts';
import { pdfInputSettings } from '../../../server/src/settings/pdf-input.ts';
import { storageSettings } from '../../../server/src/settings/storage.ts';
import { backgroundSettings } from '../../../server/src/settings/background.ts';
import { playgroundSettings } from '../../../server/src/settings/playground.ts';
import { telemetrySettings } from '../../../server/src/settings/telemetry.ts';
import { mcpSettings } from '../../../server/src/settings/mcp.ts';

const GROUPS = [
  serverSettings,
  renderSettings,
  officeSettings,
  outputSettings,
  pdfInputSettings,
  storageSettings,
  backgroundSettings,
  playgroundSettings,
  telemetrySettings,
  mcpSettings,
];

test('every group is in the table and no key is declared by two groups', () => {
  const keys = GROUPS.flatMap((group) => Object.keys(group));
  assert.equal(new Set(keys).size, keys.length, 'a key declared twice');
  assert.deepEqual(keys, Object.keys(SETTINGS));
});

test('each variable and flag names one setting, and --help prints each once', () => {
  const envs = Object.values(SETTINGS).map((spec) => spec.env);
  assert.equal(new Set(envs).size, envs.length, 'an environment variable declared twice');
  const help = helpText();
  for (const env of envs) assert.equal(help.split(`${flagName(env)} `).length, 2, `${env} once in --help`);
});

test('a setting from each group is read from the environment and from its flag', () => {
  const config = loadConfig(
    { PORT: '4000', RENDER_CONCURRENCY: '3', OFFICE_CONCURRENCY: '2', TSA_TIMEOUT_MS: '200', PDF_STREAM_MAX_BYTES: '65536', TOMBSTONE_DAYS: '5' },
    ['--webhook-attempts', '7', '--playground-enabled=false', '--otel-metric-export-interval', '1000', '--mcp-inline-max-bytes', '4096'],
  );
  assert.equal(config.port, 4000);
  assert.equal(config.renderConcurrency, 3);
  assert.equal(config.pdfStreamMaxBytes, 65536);
  assert.equal(config.officeConcurrency, 2);
  assert.equal(config.tsaTimeoutMs, 200);
  assert.equal(config.tombstoneDays, 5);
  assert.equal(config.webhookAttempts, 7);
  assert.equal(config.playgroundEnabled, false);
  assert.equal(config.otelMetricIntervalMs, 1000);
  assert.equal(config.mcpInlineMaxBytes, 4096);
});
