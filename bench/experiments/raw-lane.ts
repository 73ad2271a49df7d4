// Shared by the experiments: the project's Chromium with the reviewed flags, and a lane as
// chromium-page-source.ts opens one (an incognito context, a raw page target, a CdpPage on it).
import puppeteer, { type Browser, type CDPSession } from 'puppeteer-core';
import { CdpPage } from '../../server/src/render/cdp-page.ts';
import { findChromium } from '../../server/src/render/chromium-path.ts';
import { lanePageOptions } from '../../server/src/render/lane-policy.ts';
import { launchFlags, needsNoSandbox } from '../../server/src/render/launch-flags.ts';

/** Launches the headless shell as the service does; `extraArgs` go after the reviewed flags (an experiment's own switch). */
export async function launchBrowser(name: string, extraArgs: readonly string[] = []): Promise<Browser> {
  const executable = await findChromium('');
  return puppeteer.launch({
    executablePath: executable.path,
    ignoreDefaultArgs: true,
    pipe: true,
    waitForInitialPage: false,
    headless: 'shell',
    args: [...launchFlags({ isHeadlessShell: true, noSandbox: needsNoSandbox(), userDataDir: `/tmp/quire-${name}-${process.pid}` }), ...extraArgs],
  });
}

export async function openLane(browser: Browser, clock: 'real' | 'virtual' = 'real'): Promise<{ page: CdpPage; session: CDPSession }> {
  const context = await browser.createBrowserContext();
  const browserSession = await browser.target().createCDPSession();
  const [target] = await Promise.all([
    context.waitForTarget((t) => t.type() === 'page'),
    browserSession.send('Target.createTarget', { url: 'about:blank', browserContextId: context.id, enableBeginFrameControl: clock === 'virtual' }),
  ]);
  const session = await target.createCDPSession();
  const page = new CdpPage(session, lanePageOptions('html', session));
  await page.init();
  return { page, session };
}
