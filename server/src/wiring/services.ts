// Wiring of the services: everything the routes and background work call. A new service is
// built here from the state and rendering it needs, and handed to its routes in operations.ts.

import { hostname } from 'node:os';
import { ActivityService } from '../services/accounts/activity.ts';
import { EInvoiceReadService } from '../services/einvoice/read.ts';
import { HealthService } from '../services/render/health.ts';
import { ImageService } from '../services/render/image.ts';
import { MergeService } from '../services/merge/merge.ts';
import { OfficeService } from '../services/office/office.ts';
import { PdfToolsService } from '../services/pdf-tools/pdf-tools.ts';
import { PlaygroundService } from '../services/render/playground.ts';
import { PresetsService } from '../services/pdf-tools/presets.ts';
import { ReceiptsService } from '../services/accounts/receipts.ts';
import { RenderService } from '../services/render/render.ts';
import { TemplateArchiveService } from '../services/templates/archive.ts';
import { TemplateAssetsService } from '../services/templates/assets.ts';
import { TemplateVersionsService } from '../services/templates/versions.ts';
import { TemplatesService } from '../services/templates/templates.ts';
import { TransformService } from '../services/pdf-tools/transform.ts';
import { decodedLimitsOf } from '../settings/pdf-input.ts';
import type { Wiring } from './context.ts';
import type { Rendering } from './rendering.ts';
import type { State } from './state.ts';

export type Services = ReturnType<typeof wireServices>;

export function wireServices({ config, overrides, log }: Wiring, state: State, rendering: Rendering) {
  const { stores, accounts, documents, warn } = state;
  const { renderer, officeConverter, outputSteps, policy, resolve, proxy } = rendering;
  // Versions render their reference after each save; the versions service needs the templates one, hence the late binding.
  let versions: TemplateVersionsService | undefined;
  const templates = new TemplatesService({
    store: stores.templates,
    renderer,
    keys: accounts.keys,
    versions: stores.templateVersions,
    assets: stores.templateAssets,
    onVersion: (version) => versions?.makeReference(version),
    office: officeConverter,
    now: overrides.now,
  });
  versions = new TemplateVersionsService({ store: stores.templateVersions, templates, renderer, log });
  const assets = new TemplateAssetsService({ store: stores.templateAssets, templates, now: overrides.now });

  const events = stores.events;
  // Names this instance in the Activity screen (several instances share one event stream on PostgreSQL).
  const instance = `${hostname()}:${process.pid}`;
  const receipts = new ReceiptsService({
    store: stores.receipts,
    events,
    retentionHours: config.receiptRetentionHours,
    refusalFor: proxy?.refusalFor,
    instance,
    now: overrides.now,
    warn,
  });
  const activity = new ActivityService({ events, instance, stats: () => renderer.stats(), now: overrides.now });
  const onUsage = (keyId: string, usage: { month: string; used: number; limit: number; planId: string }) =>
    events.publish('usage.changed', { key_id: keyId, month: usage.month, used: usage.used, limit: usage.limit, plan: usage.planId });
  const render = new RenderService({
    renderer,
    meter: accounts.meter,
    commit: stores.renderCommit,
    policy,
    resolve,
    templates,
    documents,
    guardEnabled: config.networkGuard,
    office: officeConverter,
    onUsage,
    receipts,
    outputSteps,
  });
  const presets = new PresetsService(stores.presets);
  // The one stream budget of every PDF input (uploads, stored documents, merge sources, batch items, the hot folder).
  const decoded = decodedLimitsOf(config);
  const transforms = new TransformService({
    documents,
    decoded,
    render,
    receipts,
    drawer: renderer,
    presetSteps: (keyId, id) => presets.steps(keyId, id),
  });
  const pdfTools = new PdfToolsService({ documents, render, decoded });
  const playground = new PlaygroundService({
    renderer,
    sources: render,
    rates: stores.rateLimits,
    ratePerMinute: config.playgroundRateLimit,
    concurrency: config.playgroundConcurrency,
    renderSlots: config.renderConcurrency,
    maxTimeoutMs: config.playgroundMaxTimeoutMs,
    receipts,
    outputSteps,
  });
  return {
    templates,
    versions,
    assets,
    events,
    receipts,
    activity,
    render,
    presets,
    transforms,
    playground,
    health: new HealthService(renderer, officeConverter),
    merge: new MergeService({ renderer, render, documents, office: officeConverter, receipts, decoded }),
    office: new OfficeService({ converter: officeConverter, render, documents, receipts }),
    image: new ImageService({ renderer, render, receipts }),
    pdfTools,
    einvoiceRead: new EInvoiceReadService({ render, pdfTools }),
    templateArchive: new TemplateArchiveService({ templates, assets }),
  };
}
