// Liveness: a real round trip to the browser, cached for a few seconds so /health can be polled
// often without loading Chromium. Never says ok while the browser is dead: only a live answer is
// kept, and only while the renderer has not restarted its browser since.

import type { RenderPath } from '../../render/render-path.ts';
import type { Renderer } from '../../render/renderer.ts';
import type { OfficeConverter } from '../office/converter.ts';

export interface HealthReport {
  ok: boolean;
  browser: string;
  alive: boolean;
  slots: number;
  busy: number;
  queued: number;
  restarts: number;
  renderPath: RenderPath;
  /** LibreOffice (optional: its absence does not make the service unhealthy). */
  office: ReturnType<OfficeConverter['stats']>;
}

export class HealthService {
  private cached: { at: number; restarts: number } | undefined;
  private probing: Promise<boolean> | undefined;

  constructor(
    private readonly renderer: Pick<Renderer, 'stats' | 'probe'>,
    private readonly office?: Pick<OfficeConverter, 'stats'>,
    private readonly cacheMs = 3000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The renderer's state, probing the browser when the last probe is older than the cache time. */
  async report(): Promise<HealthReport> {
    const alive = await this.isAlive();
    const stats = this.renderer.stats();
    return {
      ok: alive,
      browser: stats.version,
      alive,
      slots: stats.size,
      busy: stats.busy,
      queued: stats.queued,
      restarts: stats.restarts,
      renderPath: stats.renderPath,
      office: this.office?.stats() ?? { available: false, reason: 'not configured' },
    };
  }

  /**
   * A dead answer is not kept: the browser's relaunch should show at the next call, not up to
   * cacheMs later (a probe of a dead browser sends nothing; calls meanwhile share one probe). A
   * live answer stands until cacheMs pass or the browser is restarted (a crash, a recycle).
   */
  private async isAlive(): Promise<boolean> {
    const { restarts } = this.renderer.stats();
    if (this.cached && this.cached.restarts === restarts && this.now() - this.cached.at < this.cacheMs) return true;
    this.probing ??= this.renderer.probe().finally(() => {
      this.probing = undefined;
    });
    const alive = await this.probing;
    this.cached = alive ? { at: this.now(), restarts } : undefined;
    return alive;
  }
}
