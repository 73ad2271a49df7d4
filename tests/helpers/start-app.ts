// Starts the app in-process on port 0 with a temporary DATA_DIR and registers cleanup.
// Every server gets an admin token and one API key (business plan unless told otherwise), and
// request()/render() send that key unless the caller gives its own Authorization header.
// In a lane with a shared server (shared-server.ts), a default-config call gets a handle on it instead.

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
// The app and its collaborators load when a test starts a server of its own: a file on the shared
// server never loads the server's modules (~3 s of CPU per file).
import type { App, AppOverrides } from '../../server/src/app.ts';
import { configWith, type Config } from '../../server/src/config.ts';
import { engineUnderTest, type TestEngine } from './engines.ts';
import { fakePageSource, fastLane } from './fake-page-source.ts';
import { sharedServer, sharedServerHandle, type ServerParts } from './shared-server.ts';
import { closingLate } from './late-hooks.ts';
import { testInstances } from './test-instances.ts';

// The two-instance helpers (PostgreSQL's client, the proxy) load only in that lane (~0.2 s of CPU
// per process elsewhere); at module load, so the file-level after() hook they register stays the file's.
const twoInstanceHelpers = testInstances === 2 ? await import('./two-instances.ts') : undefined;

export interface IssuedKey {
  id: string;
  key: string;
  name: string;
  plan: string;
  auto_store: boolean;
  receipts: 'stored' | 'all' | 'off';
  created_at: string;
}

export interface TestServer {
  app: App;
  url: string;
  dataDir: string;
  adminToken: string;
  /** The server's default API key. */
  key: IssuedKey;
  /** fetch against the server with the default key, JSON body encoded when given as an object. */
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** fetch with exactly the headers given: no key. */
  requestWithoutKey(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** fetch with the admin token. */
  admin(method: string, path: string, body?: unknown): Promise<Response>;
  /** POST /v1/pdf with a JSON body (default key unless headers carry another Authorization). */
  render(body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Issues a key through POST /admin/v1/keys. */
  createKey(plan: string, options?: { name?: string; auto_store?: boolean }): Promise<IssuedKey>;
}

export interface TestServerOptions {
  /** Plan of the default key (default business, so render tests never meet the allowance). */
  plan?: string;
  /** The Chromium build (and page source) to render on; default the engine under test (QUIRE_TEST_ENGINE). */
  engine?: TestEngine;
}

type Hook = Pick<TestContext, 'after'> | { after: (fn: () => Promise<void>) => void };

export async function startTestServer(
  t: Hook,
  overrides: Partial<Config> = {},
  collaborators: AppOverrides = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  // The lane's shared server (one app and one Chromium for every file that needs no server of its
  // own) serves a call that asks nothing of its own; the key made below keeps the test's data apart.
  const shared = sharedServer();
  // A test that timed out while its server started must still stop it (late-hooks.ts).
  t = closingLate(t);
  const ownNeeded = Object.keys(overrides).length > 0 || Object.keys(collaborators).length > 0 || options.engine || testInstances === 2;
  const parts = shared && !ownNeeded ? sharedServerHandle(shared) : await startOwn(t, overrides, collaborators, options);
  return testServerOn(parts, options.plan);
}

/** A handle on a running server (its parts) with a fresh default key of `plan` (business unless told). */
export async function testServerOn({ app, url, dataDir, adminToken }: ServerParts, plan = 'business'): Promise<TestServer> {
  const requestWithoutKey = (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(url + route, {
      method,
      headers: body === undefined || typeof body === 'string' ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const admin = (method: string, route: string, body?: unknown) => requestWithoutKey(method, route, body, { authorization: `Bearer ${adminToken}` });
  const createKey = async (plan: string, keyOptions: { name?: string; auto_store?: boolean } = {}) => {
    const response = await admin('POST', '/admin/v1/keys', { name: keyOptions.name ?? `test ${plan}`, plan, ...keyOptions });
    if (response.status !== 201) throw new Error(`creating a ${plan} key answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as IssuedKey;
  };
  const key = await createKey(plan, { name: 'default test key' });
  const request = (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
    const hasAuthorization = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
    return requestWithoutKey(method, route, body, hasAuthorization ? headers : { authorization: `Bearer ${key.key}`, ...headers });
  };
  return {
    // Getters: on the shared server, reading app or dataDir throws, naming the fix (shared-server.ts).
    get app() {
      return app();
    },
    url,
    get dataDir() {
      return dataDir();
    },
    adminToken,
    key,
    request,
    requestWithoutKey,
    admin,
    render: (body, headers) => request('POST', '/v1/pdf', body, headers),
    createKey,
  };
}

/** A server of the test's own, stopped (and its temporary DATA_DIR removed) when the test ends. */
async function startOwn(t: Hook, overrides: Partial<Config>, collaborators: AppOverrides, options: TestServerOptions): Promise<ServerParts> {
  const dataDir = overrides.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'quire-test-')));
  // An explicit adminToken of '' leaves the server to generate DATA_DIR/admin-token.
  const adminToken = 'adminToken' in overrides ? overrides.adminToken : `adm_test_${randomBytes(16).toString('hex')}`;
  // The engine matrix (QUIRE_TEST_ENGINE or CHROME_PATH, tests/helpers/engines.ts) picks the Chromium build.
  const engine = options.engine ?? engineUnderTest;
  // LibreOffice starts on a test's first office conversion, not with every test server.
  const config = configWith({
    port: 0,
    logLevel: (process.env.QUIRE_TEST_LOG as 'error' | undefined) ?? 'silent',
    dataDir,
    chromePath: engine.path,
    officeWarmAtStart: false,
    ...overrides,
    adminToken,
  });
  // The fast lane (npm run test:fast) renders on a fake page source, the Electron stand-in on the
  // desktop app's, unless the test brings its own.
  const lanePages = fastLane()
    ? fakePageSource
    : engine.pages === 'electron'
      ? (await import('./fake-electron.ts')).electronStandIn(config.chromePath)
      : undefined;
  const appOverrides = lanePages && !collaborators.pageSource ? { ...collaborators, pageSource: lanePages } : collaborators;
  // The two-instance lane (npm run test:two): the same tests, through a proxy alternating between two apps.
  const { app, url } = twoInstanceHelpers ? await twoInstanceHelpers.startTwoInstances(t, config, appOverrides) : await startOne(t, config, appOverrides);
  t.after(async () => {
    if (!overrides.dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return { app: () => app, url, dataDir: () => dataDir, adminToken: app.adminToken };
}

async function startOne(t: Hook, config: Config, collaborators: AppOverrides): Promise<{ app: App; url: string }> {
  const { createApp } = await import('../../server/src/app.ts');
  const app = await createApp(config, collaborators);
  const url = await app.listen();
  t.after(() => app.close());
  return { app, url };
}

/** True in the two-instance lane (npm run test:two): a test's server is two apps behind a proxy, on PostgreSQL. */
export const twoInstances = testInstances === 2;

/** Test options for a test that reaches one process's internals (DATA_DIR files): skipped, saying so, in the two-instance lane. */
export function oneInstanceOnly(why: string): { skip: string | false } {
  return { skip: twoInstances && `one instance only: ${why}` };
}

/** The Authorization header for a key. */
export function bearer(key: string | IssuedKey): Record<string, string> {
  return { authorization: `Bearer ${typeof key === 'string' ? key : key.key}` };
}

/** Reads an error response and returns its `{detail, code}` after checking the status. */
/** The documents the test server's key has used this month, as the admin API reads it. */
export async function usageOf(server: TestServer): Promise<number> {
  const response = await server.admin('GET', `/admin/v1/keys/${server.key.id}`);
  return ((await response.json()) as { usage: { used: number } }).usage.used;
}

export async function errorOf(response: Response): Promise<{ status: number; code: string; detail: string }> {
  const body = (await response.json()) as { code: string; detail: string };
  return { status: response.status, code: body.code, detail: body.detail };
}
