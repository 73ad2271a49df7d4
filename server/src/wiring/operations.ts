// Wiring of the HTTP API: the operation list (one entry per route module), authentication and
// the express app. A new route module's operations are added to the list here.

import { hashSecret } from '../accounts/keys.ts';
import { adminAuth, apiKeyAuth } from '../http/middleware/auth.ts';
import { adminBatchOperations } from '../http/routes/admin-batches.ts';
import { adminDocumentOperations } from '../http/routes/admin-documents.ts';
import { adminEventOperations } from '../http/routes/admin-events.ts';
import { adminKeyOperations } from '../http/routes/admin-keys.ts';
import { adminPdfTransformOperations } from '../http/routes/admin-pdf-transform.ts';
import { adminEInvoiceOperations } from '../http/routes/admin-einvoice.ts';
import { adminTemplateOperations } from '../http/routes/admin-templates.ts';
import { batchOperations } from '../http/routes/batches.ts';
import { certificateOperations } from '../http/routes/certificates.ts';
import { documentOperations } from '../http/routes/documents.ts';
import { einvoiceOperations } from '../http/routes/einvoice.ts';
import { healthOperations } from '../http/routes/health.ts';
import { imageOperations } from '../http/routes/image.ts';
import { mergeOperations } from '../http/routes/merge.ts';
import { officeOperations } from '../http/routes/office.ts';
import { pdfToolOperations } from '../http/routes/pdf-tools.ts';
import { playgroundOperations } from '../http/routes/playground.ts';
import { presetOperations } from '../http/routes/presets.ts';
import { receiptOperations } from '../http/routes/receipts.ts';
import { renderOperations } from '../http/routes/render.ts';
import { templateArchiveOperations } from '../http/routes/template-archive.ts';
import { templateAssetOperations } from '../http/routes/template-assets.ts';
import { templateVersionOperations } from '../http/routes/template-versions.ts';
import { templateOperations } from '../http/routes/templates.ts';
import { transformOperations } from '../http/routes/transform.ts';
import { uiRoutes } from '../http/routes/ui.ts';
import { createHttpApp } from '../http/server.ts';
import { mcpEndpoint } from '../mcp/http-endpoint.ts';
import type { Background } from './background.ts';
import { SERVICE_VERSION, type Wiring } from './context.ts';
import type { Rendering } from './rendering.ts';
import type { Services } from './services.ts';
import type { State } from './state.ts';

export function createHttp(
  { config, overrides, log }: Wiring,
  { accounts, documents, adminToken }: State,
  rendering: Rendering,
  services: Services,
  { batches }: Background,
) {
  const { signing, metrics } = rendering;
  const { templates, versions, assets, events, receipts, render, presets, transforms } = services;
  const apiKey = apiKeyAuth(accounts.keys, log);
  // POST /mcp: the MCP server, a client of the routes below with the caller's key (mcp/http-endpoint.ts).
  const mcp = config.mcpEnabled
    ? [
        mcpEndpoint({
          auth: apiKey,
          inlineMaxBytes: config.mcpInlineMaxBytes,
          officeMaxUploadBytes: config.officeMaxUploadBytes,
          version: SERVICE_VERSION,
          log,
        }),
      ]
    : [];
  return createHttpApp({
    operations: [
      ...healthOperations(services.health, SERVICE_VERSION, () => signing.certificates.expiring()),
      ...certificateOperations(signing.certificates, signing.verify),
      ...renderOperations(render),
      ...mergeOperations(services.merge),
      ...transformOperations(transforms),
      ...presetOperations(presets),
      ...adminPdfTransformOperations(transforms, presets, (keyId) => accounts.keys.get(keyId)),
      ...officeOperations(services.office, config.officeMaxUploadBytes),
      ...imageOperations(services.image),
      ...pdfToolOperations(services.pdfTools),
      ...einvoiceOperations(services.einvoiceRead),
      ...adminEInvoiceOperations(einvoiceOperations(services.einvoiceRead)),
      ...receiptOperations(receipts, services.activity, config.playgroundEnabled),
      ...templateOperations(templates),
      ...documentOperations(documents),
      ...adminKeyOperations(accounts.keys),
      ...playgroundOperations(services.playground, config.playgroundEnabled),
      ...adminTemplateOperations(templates, render),
      ...templateArchiveOperations(services.templateArchive),
      ...templateAssetOperations(assets, 'key'),
      ...templateAssetOperations(assets, 'admin'),
      ...templateVersionOperations(versions, 'key'),
      ...templateVersionOperations(versions, 'admin'),
      ...adminDocumentOperations(documents),
      ...batchOperations(batches),
      ...adminBatchOperations(batches),
      ...adminEventOperations(events),
    ],
    auth: { api_key: apiKey, admin: adminAuth(hashSecret(adminToken)) },
    log,
    version: SERVICE_VERSION,
    docs: config.docsEnabled,
    trustProxy: config.trustProxy,
    metrics: config.metricsEnabled ? metrics.registry : undefined,
    extra: [...mcp, uiRoutes(overrides.uiDir)],
  });
}
