// One build for /admin and /playground: the server answers index.html for both and serves the
// hashed assets under /ui/assets (server/src/http/routes/ui.ts). `npm run dev:ui` proxies the API
// to a server on 127.0.0.1:3000.

import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { recordBuildInputs } from '../scripts/ui-build-inputs.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = { target: 'http://127.0.0.1:3000', changeOrigin: false };

export default defineConfig({
  root,
  base: '/ui/',
  // recordBuildInputs: what the build was made from, so a test run can tell a stale dist/ui (scripts/ui-build-inputs.ts).
  plugins: [react(), recordBuildInputs()],
  build: {
    outDir: fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    // pdf.js is split into its own chunk and loaded only when a PDF is shown.
    chunkSizeWarningLimit: 1200,
  },
  server: {
    proxy: { '/v1': api, '/admin/v1': api, '/health': api, '/openapi.json': api },
  },
});
