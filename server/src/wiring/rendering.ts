// Wiring of rendering: signing, metrics, the network guard (address policy, DNS, egress proxy),
// Chromium, LibreOffice, and the final output steps every PDF takes. A new output step goes in
// the OutputSteps list here.

import { createAddressPolicy } from '../guard/address-policy.ts';
import { createDnsResolver } from '../guard/dns-resolver.ts';
import { startEgressProxy } from '../guard/egress-proxy.ts';
import { createMetrics } from '../metrics.ts';
import { startOffice } from '../office/start-office.ts';
import { startRenderer } from '../render/index.ts';
import { AttachmentsStep } from '../services/output/attachments-step.ts';
import { OfficeConverter } from '../services/office/converter.ts';
import { OutputSteps } from '../services/output/steps.ts';
import { PdfAStep } from '../services/output/pdf-a-step.ts';
import { PdfUaStep } from '../services/output/pdf-ua-step.ts';
import { openSigning } from '../services/signing/signing.ts';
import type { Telemetry } from '../telemetry/otel.ts';
import type { Wiring } from './context.ts';
import type { State } from './state.ts';

export type Rendering = Awaited<ReturnType<typeof startRendering>>;

export async function startRendering({ config, overrides, log }: Wiring, { stores, documents }: State, telemetry: Telemetry | undefined) {
  // Certificates with sealed keys, the sign step and verify; a TSA_URL off TSA_ALLOW_HOSTS stops start-up here.
  const signing = await openSigning(config, stores.certificates, documents, overrides.now);
  const metrics = createMetrics(telemetry?.meter);
  const policy = createAddressPolicy(config.allowHosts, config.denyHosts);
  // One resolver (c-ares, time-limited, cached) for the proxy, url checks and webhooks.
  const resolve = overrides.resolve ?? createDnsResolver({ timeoutMs: config.dnsTimeoutMs });
  // The guard's egress proxy starts before Chromium, which is launched pointing at it.
  const proxy = config.networkGuard ? await startEgressProxy({ policy, resolve, log, onDecision: metrics.onEgress }) : undefined;
  if (!proxy) log.warn('NETWORK_GUARD is off: pages may reach any address, private ones included (trusted content and benchmarks only)');
  const renderer = await startRenderer(
    {
      chromePath: config.chromePath,
      fontsDir: config.fontsDir,
      workDir: config.dataDir,
      recycleAfter: config.browserRecycleAfter,
      concurrency: config.renderConcurrency,
      queueSize: config.renderQueueSize,
      queueTimeoutMs: config.renderQueueTimeoutMs,
      proxyServer: proxy?.url,
      log,
      hooks: {
        onRender: metrics.onRender,
        onBrowserRestart: metrics.onBrowserRestart,
        onRetry: metrics.onRenderRetry,
        onRenderPathFallback: metrics.onRenderPathFallback,
      },
    },
    overrides.pageSource,
  ).catch(async (error: unknown) => {
    await proxy?.close();
    await stores.close();
    throw error;
  });
  metrics.watchRenderer(() => renderer.stats());
  // Optional: without LibreOffice the office route answers 501 office_unavailable.
  const office = startOffice(config, log, overrides.office);
  const officeConverter = new OfficeConverter(office.availability, renderer);
  // The final steps every output takes, in their order: services/output/steps.ts.
  const outputSteps = new OutputSteps([
    new AttachmentsStep({ documents }),
    new PdfUaStep(),
    new PdfAStep({ veraPdf: config.veraPdfPath || undefined }),
    signing.step,
  ]);
  return { signing, metrics, policy, resolve, proxy, renderer, office, officeConverter, outputSteps };
}
