// Which lifecycle events (init, DOMContentLoaded, load...) the page's current document fired, by
// loader, and when the one a load waits for is reached. Apart from cdp-page.ts because the events of
// a navigation, and of HTML written into a document, arrive out of step with the commands.

import type { Protocol } from 'puppeteer-core';
import type { WaitUntil } from './render-source.ts';

/** The lifecycle event each wait starts from; the network-idle ones then wait for a quiet network (request-tracker.ts). */
export const LIFECYCLE_EVENT: Record<WaitUntil, string> = {
  load: 'load',
  domcontentloaded: 'DOMContentLoaded',
  networkidle0: 'load',
  networkidle2: 'load',
};

/** Requests allowed in flight during the quiet window of the waits that have one. */
export const IN_FLIGHT_ALLOWED: Partial<Record<WaitUntil, number>> = { networkidle0: 0, networkidle2: 2 };

export class PageLifecycle {
  // Events of a navigation can arrive before Page.navigate answers with its loaderId, so they
  // are recorded per loader and read once the loaderId is known.
  private readonly fired = new Map<string, Set<string>>();
  /** The current document's loader, once known. */
  loaderId: string | undefined;
  /**
   * The loader HTML was just written into, until the written document's 'init': the empty
   * document's own late events (its DOMContentLoaded and load) carry the same loaderId.
   */
  private writtenLoader: string | undefined;
  private waiter: (() => void) | undefined;

  /** A navigation starts: what earlier loaders fired no longer counts; resolves once its document fired `wanted`. */
  navigating(wanted: string): Promise<void> {
    this.fired.clear();
    this.loaderId = undefined;
    this.writtenLoader = undefined;
    return this.reached(wanted);
  }

  /** Page.navigate answered with the navigation's loader. */
  committed(loaderId: string): void {
    this.loaderId = loaderId;
    this.waiter?.();
  }

  /**
   * HTML is about to be written into the document of `loaderId`. Only what the written document
   * fires counts: the empty document's DOMContentLoaded and load may still be on their way under
   * the same loader, and would pass for the written document's (a 'load' wait then printed before
   * its images had loaded). The write starts the written document's events with an 'init'
   * (document.open); what comes before it is the empty document's.
   */
  writing(loaderId: string, wanted: string): Promise<void> {
    this.loaderId = loaderId;
    this.fired.set(loaderId, new Set());
    this.writtenLoader = loaderId;
    return this.reached(wanted);
  }

  onEvent(event: Protocol.Page.LifecycleEventEvent): void {
    if (event.loaderId === this.writtenLoader) {
      if (event.name !== 'init') return;
      this.writtenLoader = undefined;
    }
    const names = this.fired.get(event.loaderId) ?? new Set<string>();
    if (event.name === 'init') names.clear();
    names.add(event.name);
    this.fired.set(event.loaderId, names);
    this.waiter?.();
  }

  /** Resolves once the current loader's document fired the wanted lifecycle event. */
  private reached(wanted: string): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiter = () => {
        if (this.loaderId && this.fired.get(this.loaderId)?.has(wanted)) resolve();
      };
      this.waiter();
    });
  }
}
