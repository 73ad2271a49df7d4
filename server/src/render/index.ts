// Builds the headless renderer: finds Chromium, sets up fonts, launches the browser warm.

import type { Logger } from '../logger.ts';
import { BrowserHost } from './browser-host.ts';
import { ChromiumPageSource } from './chromium-page-source.ts';
import { findChromium } from './chromium-path.ts';
import { fontEnvironment } from './fonts.ts';
import { DEFAULT_PDF_OPTIONS } from './pdf-options.ts';
import { Renderer, type RendererHooks, type RenderLimits } from './renderer.ts';

export interface HeadlessRendererOptions extends RenderLimits {
  chromePath: string;
  fontsDir: string;
  workDir: string;
  recycleAfter: number;
  proxyServer?: string;
  log: Logger;
  hooks?: RendererHooks & { onBrowserRestart?: (reason: string) => void };
}

/** Starts Chromium and returns a Renderer on it; throws ChromiumNotFoundError or a launch failure. */
export async function startHeadlessRenderer(options: HeadlessRendererOptions): Promise<Renderer> {
  const executable = await findChromium(options.chromePath);
  options.log.info({ path: executable.path, source: executable.source }, 'using Chromium');
  const host = new BrowserHost({
    executable,
    env: await fontEnvironment(options.fontsDir, options.workDir),
    recycleAfter: options.recycleAfter,
    proxyServer: options.proxyServer,
    log: options.log,
    onRestart: options.hooks?.onBrowserRestart,
  });
  await host.start();
  const renderer = new Renderer(new ChromiumPageSource(host), options, options.hooks);
  // Warm: the first render pays for process and font start-up, so do it before saying ready.
  await renderer.render({ source: { kind: 'html', html: '<p>warm-up</p>' }, options: warmUpOptions() }).catch((error) => {
    options.log.warn({ err: (error as Error).message }, 'warm-up render failed');
  });
  return renderer;
}

function warmUpOptions() {
  return { ...DEFAULT_PDF_OPTIONS, wait_until: 'load' as const };
}

export { Renderer } from './renderer.ts';
export type { RenderJob, RendererStats, RenderOutcome } from './renderer.ts';
