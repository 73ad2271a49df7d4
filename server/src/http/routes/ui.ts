// The web pages (docs/api.md#service-endpoints): the one Vite build of ui/ answers /admin and /playground
// (the app picks the screen from the path) with its assets under /ui/assets. The API paths under
// /admin/v1 are never answered here. A missing build is a page that says how to make it.

import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fromPackageRoot } from '../../package-root.ts';

/** Where `npm run build` writes the UI (vite.config.ts: outDir). */
export const DEFAULT_UI_DIR = fromPackageRoot('dist', 'ui');

// The app loads only its own scripts and styles; PDFs are previewed from blob: URLs with pdf.js.
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
    "worker-src 'self' blob:; connect-src 'self' blob:; font-src 'self' data:; object-src 'none'; base-uri 'none'; " +
    "form-action 'self'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
};

const MISSING_BUILD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Quire: the web UI is not built</title>
<style>body{font:16px/1.5 system-ui,sans-serif;color:#1f2937;max-width:36rem;margin:15vh auto;padding:0 1.5rem}
code{background:#f3f4f6;padding:.1rem .35rem;border-radius:4px}</style></head>
<body><h1>The web UI is not built yet</h1>
<p>This server answers the API, but the admin window and the playground are static files that
have not been built. Run <code>npm run build</code> (or <code>npm run setup</code>) in the project
folder, then reload this page.</p></body></html>`;

/** Serves the built admin/playground app from `dir`, with the SPA fallback for its screens. */
export function uiRoutes(dir: string = DEFAULT_UI_DIR): Router {
  const router = express.Router();
  router.get('/', (_req, res) => res.redirect(302, '/admin'));
  router.use('/ui/assets', express.static(path.join(dir, 'assets'), { index: false, immutable: true, maxAge: '1y', fallthrough: true }));
  router.use('/ui', express.static(dir, { index: false, maxAge: '1h' }));
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!isAppPath(req.path)) return next();
    const index = path.join(dir, 'index.html');
    if (!existsSync(index)) {
      res.status(503).set(PAGE_HEADERS).type('html').send(MISSING_BUILD_PAGE);
      return;
    }
    try {
      res
        .status(200)
        .set(PAGE_HEADERS)
        .type('html')
        .send(await readFile(index, 'utf8'));
    } catch (error) {
      next(error);
    }
  });
  return router;
}

/** /admin, /admin/..., /playground, /playground/... but never the admin API under /admin/v1. */
function isAppPath(pathname: string): boolean {
  if (pathname === '/admin/v1' || pathname.startsWith('/admin/v1/')) return false;
  return /^\/(admin|playground)(\/|$)/.test(pathname);
}
