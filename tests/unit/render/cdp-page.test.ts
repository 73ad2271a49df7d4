// CdpPage's lifecycle bookkeeping on a scripted CDP session: which document's events a wait
// counts when HTML is written into the empty document clear() prepared. No browser needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CdpPage } from '../../../server/src/render/cdp-page.ts';
import type { CdpSession } from '../../../server/src/render/cdp-session.ts';

type Handler = (params: unknown) => void;

/** A session that answers every command, with a hook per method, and emits events on demand. */
class ScriptedSession implements CdpSession {
  private readonly handlers = new Map<string, Set<Handler>>();
  readonly hooks = new Map<string, (params: Record<string, unknown>) => unknown>();

  async send(method: string, params: object = {}): Promise<unknown> {
    return this.hooks.get(method)?.(params as Record<string, unknown>) ?? {};
  }

  on(event: string, handler: Handler): void {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)!.add(handler);
  }

  off(event: string, handler: Handler): void {
    this.handlers.get(event)?.delete(handler);
  }

  emit(event: string, params: unknown): void {
    for (const handler of this.handlers.get(event) ?? []) handler(params);
  }

  lifecycle(loaderId: string, ...names: string[]): void {
    for (const name of names) this.emit('Page.lifecycleEvent', { frameId: 'frame', loaderId, name, timestamp: 0 });
  }
}

/** A session on which clear() navigates to the empty document and sees it commit ('init' only). */
function sessionWithEmptyDocument(): ScriptedSession {
  const session = new ScriptedSession();
  let url = '';
  session.hooks.set('Page.navigate', (params) => {
    url = String(params.url);
    queueMicrotask(() => session.lifecycle('loader-1', 'init'));
    return { frameId: 'frame', loaderId: 'loader-1' };
  });
  session.hooks.set('Page.getNavigationHistory', () => ({ currentIndex: 0, entries: [{ id: 1, url, userTypedURL: url, title: '', transitionType: 'typed' }] }));
  return session;
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

test("a 'load' wait on written HTML ignores the empty document's late load, and ends at the written document's", async () => {
  const session = sessionWithEmptyDocument();
  // As measured on Chromium when the header pass writes right after clear(): the empty document's
  // DOMContentLoaded and load arrive after the write was sent, then the written document's 'init'
  // (document.open) and DOMContentLoaded; its load comes once its images are in.
  session.hooks.set('Page.setDocumentContent', () => {
    session.lifecycle('loader-1', 'DOMContentLoaded', 'load', 'init', 'DOMContentLoaded');
    return {};
  });
  const page = new CdpPage(session);
  await page.init();
  let loaded = false;
  const loading = page.load({ kind: 'html', html: '<img src="logo.png">' }, 'load').then(() => (loaded = true));
  for (let i = 0; i < 5; i++) await settled();
  assert.equal(loaded, false, "the empty document's load passed for the written document's");
  session.lifecycle('loader-1', 'load');
  await loading;
  assert.equal(loaded, true);
});

test("a 'load' wait on written HTML ends at its load when the empty document's events came before the write", async () => {
  const session = sessionWithEmptyDocument();
  session.hooks.set('Page.setDocumentContent', () => {
    session.lifecycle('loader-1', 'init', 'DOMContentLoaded', 'load');
    return {};
  });
  const page = new CdpPage(session);
  await page.init();
  await page.load({ kind: 'html', html: '<p>hello</p>' }, 'load');
  // The empty document's events before the write, then the written document's, then the next render.
  session.hooks.set('Page.setDocumentContent', () => {
    session.lifecycle('loader-1', 'init', 'DOMContentLoaded', 'load');
    return {};
  });
  await page.load({ kind: 'html', html: '<p>again</p>' }, 'domcontentloaded');
});
