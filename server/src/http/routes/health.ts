// GET /health: no key; 200 while the renderer works, 503 when the browser is dead.

import { API_VERSION } from '../openapi.ts';
import { operation } from '../operation.ts';
import { healthSchema } from '../schemas/render.ts';
import type { HealthService } from '../../services/render/health.ts';

/** expiring: signing certificates that expire within 30 days (or have), listed so monitoring sees them. */
export function healthOperations(
  health: HealthService,
  version: string,
  expiring: () => Promise<{ id: string; name: string; not_after: string; warning: string }[]> = async () => [],
) {
  return [
    operation({
      method: 'get',
      path: '/health',
      summary: 'Liveness, with renderer facts',
      tag: 'Service',
      auth: 'none',
      responses: {
        200: { description: 'The service and its browser work.', body: healthSchema },
        503: { description: 'The browser is dead and could not be relaunched.', body: healthSchema },
      },
      errors: [],
      handler: async (_input, _req, res) => {
        const report = await health.report();
        const certificates = await expiring();
        res.status(report.ok ? 200 : 503).json({
          status: report.ok ? 'ok' : 'unavailable',
          // version: the server software's (package.json); api_version: the interface's, as /openapi.json's info.version.
          version,
          api_version: API_VERSION,
          renderer: {
            browser: report.browser,
            alive: report.alive,
            slots: report.slots,
            busy: report.busy,
            queued: report.queued,
            restarts: report.restarts,
            render_path: {
              mode: report.renderPath.mode,
              reason: report.renderPath.reason,
              disabled: report.renderPath.disabled,
              probe_ms: report.renderPath.probeMs,
            },
          },
          office: report.office,
          ...(certificates.length > 0 ? { signing: { certificates_expiring: certificates } } : {}),
        });
      },
    }),
  ];
}
