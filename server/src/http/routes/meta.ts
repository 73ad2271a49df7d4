// The service's self-description: /openapi.json, readable docs at /docs (Swagger UI served from
// the swagger-ui-dist package, no CDN), and Prometheus /metrics. Each can be switched off.

import express, { type Router } from 'express';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Registry } from 'prom-client';

const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Quire API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"><link rel="stylesheet" href="/docs/quire.css"></head>
<body><nav class="quire-bar"><a href="/admin">← Back to the admin window</a><a href="/playground">Playground</a></nav><div id="docs"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;

const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true });`;

// A bar above Swagger UI with the way back to the app (a stylesheet of our own: no inline styles).
const DOCS_CSS = `.quire-bar { display: flex; gap: 20px; padding: 10px 20px; background: #111827; font: 14px system-ui, sans-serif; }
.quire-bar a { color: #e5e7eb; text-decoration: none; } .quire-bar a:hover { color: #fff; text-decoration: underline; }`;

export function mountDocs(router: Router, document: () => unknown): void {
  const assets = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  router.get('/openapi.json', (_req, res) => void res.json(document()));
  router.get('/docs', (_req, res) => void res.type('html').send(DOCS_PAGE));
  router.get('/docs/init.js', (_req, res) => void res.type('js').send(DOCS_INIT));
  router.get('/docs/quire.css', (_req, res) => void res.type('css').send(DOCS_CSS));
  router.use('/docs/assets', express.static(assets, { index: false, maxAge: '1h' }));
}

export function mountMetrics(router: Router, registry: Registry): void {
  router.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
}
