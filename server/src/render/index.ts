// Builds the renderer: by default the headless one (finds Chromium, sets up fonts, launches the
// browser), or one on a PageSource the caller provides (the desktop app: Electron's own Chromium);
// either way the same Renderer, warmed before the server says it is ready.

import type { Logger } from '../logger.ts';
import { ChromiumPageSource } from './chromium-page-source.ts';
import { findChromium } from './chromium-path.ts';
import { fontEnvironment } from './fonts.ts';
import type { PageSource } from './page-source.ts';
import type { RenderPathMode } from './render-path.ts';
import { DEFAULT_PDF_OPTIONS } from './pdf-options.ts';
import { Renderer } from './renderer.ts';
import type { RendererHooks, RenderLimits } from './render-job.ts';

export interface HeadlessRendererOptions extends RenderLimits {
  chromePath: string;
  fontsDir: string;
  workDir: string;
  recycleAfter: number;
  proxyServer?: string;
  log: Logger;
  hooks?: RendererHooks & {
    onBrowserRestart?: (reason: string) => void;
    /** A browser launch chose a render path below the best one (render-path.ts). */
    onRenderPathFallback?: (mode: RenderPathMode, by: 'probe' | 'breaker') => void;
  };
}

/** What a PageSource other than the headless one is built with: where its pages must send every request. */
export interface PageSourceContext {
  /** The network guard's egress proxy; undefined when NETWORK_GUARD is off. */
  proxyServer?: string;
  log: Logger;
  /** For the metric of render-path fallbacks (render-path.ts). */
  onRenderPathFallback?: (mode: RenderPathMode, by: 'probe' | 'breaker') => void;
}

export type PageSourceFactory = (context: PageSourceContext) => Promise<PageSource>;

/** The headless renderer, or a Renderer on the PageSource that pageSource builds; warmed either way. */
export async function startRenderer(options: HeadlessRendererOptions, pageSource?: PageSourceFactory): Promise<Renderer> {
  if (!pageSource) return startHeadlessRenderer(options);
  const source = await pageSource({ proxyServer: options.proxyServer, log: options.log, onRenderPathFallback: options.hooks?.onRenderPathFallback });
  // Probes the render path before the server says ready, as the headless source does.
  await source.start?.();
  return warm(new Renderer(source, options, options.hooks), options.log);
}

/** Starts Chromium and returns a Renderer on it; throws ChromiumNotFoundError or a launch failure. */
export async function startHeadlessRenderer(options: HeadlessRendererOptions): Promise<Renderer> {
  return warm(new Renderer(await startChromiumPageSource(options), options, options.hooks), options.log);
}

/** Finds and launches Chromium, probes its render path (the start-up log says which and why) and returns the page source on it. */
export async function startChromiumPageSource(options: Omit<HeadlessRendererOptions, keyof RenderLimits>): Promise<ChromiumPageSource> {
  const executable = await findChromium(options.chromePath);
  options.log.info({ path: executable.path, source: executable.source }, 'using Chromium');
  // Loaded only here: puppeteer-core is the headless server's, and the desktop app does not ship it.
  const { BrowserHost } = await import('./browser-host.ts');
  const host = new BrowserHost({
    executable,
    env: await fontEnvironment(options.fontsDir, options.workDir),
    recycleAfter: options.recycleAfter,
    proxyServer: options.proxyServer,
    log: options.log,
    onRestart: options.hooks?.onBrowserRestart,
  });
  const source = new ChromiumPageSource(host, { log: options.log, onRenderPathFallback: options.hooks?.onRenderPathFallback });
  await source.start();
  return source;
}

/** The first render pays for process and font start-up, so it happens before the server says ready. */
async function warm(renderer: Renderer, log: Logger): Promise<Renderer> {
  await renderer.render({ source: { kind: 'html', html: '<p>warm-up</p>' }, options: warmUpOptions() }).catch((error) => {
    log.warn({ err: (error as Error).message }, 'warm-up render failed');
  });
  return renderer;
}

function warmUpOptions() {
  return { ...DEFAULT_PDF_OPTIONS, wait_until: 'load' as const };
}

export { Renderer } from './renderer.ts';
export type { RenderJob, RendererStats, RenderOutcome } from './render-job.ts';
