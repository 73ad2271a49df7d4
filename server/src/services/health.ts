// Liveness: a real round trip to the browser, cached for a few seconds so /health can be polled
// often without loading Chromium. Never says ok while the browser is dead.

import type { RenderPath } from '../render/render-path.ts';
import type { Renderer } from '../render/renderer.ts';
import type { OfficeConverter } from './office-converter.ts';

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
  private cached: { alive: boolean; at: number } | undefined;
  private probing: Promise<boolean> | undefined;

  constructor(
    private readonly renderer: Renderer,
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

  private async isAlive(): Promise<boolean> {
    if (this.cached && this.now() - this.cached.at < this.cacheMs) return this.cached.alive;
    this.probing ??= this.renderer.probe().finally(() => {
      this.probing = undefined;
    });
    const alive = await this.probing;
    this.cached = { alive, at: this.now() };
    return alive;
  }
}
