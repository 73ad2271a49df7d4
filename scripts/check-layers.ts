// Fails on an import that runs up the layers docs/architecture.md draws (Biome's noImportCycles
// already refuses circles, but a one-way import from a lower layer to a higher one is no circle).
// Run by tests/unit/layers.test.ts, so `npm test` keeps the map true; `node --import tsx
// scripts/check-layers.ts` prints the offending imports.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('../server/src/', import.meta.url));

/**
 * Each layer of server/src (a folder, or a module at its root) and its height: a module may
 * import its own layer and any lower one, never a higher one. Layers of the same height are
 * siblings and do not import each other. Keep in step with docs/architecture.md.
 */
/** Roots may import anything, each other included. */
const ROOT = 10;

export const LAYERS: Record<string, number> = {
  // Composition roots and command lines: they wire everything, each other included.
  app: 10,
  // app.ts's wiring per area (state, rendering, services, background, operations, listener).
  wiring: 10,
  main: 10,
  serve: 10,
  cli: 10,
  'cli-commands': 10,
  'cli-admin-api': 10,
  'cli-certificates': 10,
  'cli-mcp': 10,
  // The MCP server: a client of the /v1 API that takes its tools' schemas from http/schemas.
  mcp: 9,
  http: 8,
  services: 7,
  // Background work: the batch worker, webhooks, the hot folder, the retention sweeper.
  queue: 6,
  // What the API shows that background work sends too (error mapping, batch JSON, headers).
  wire: 5,
  metrics: 5,
  // The engines beside each other: LibreOffice uses the renderer's fair slots and header drawing.
  office: 4,
  render: 3,
  guard: 3,
  stores: 3,
  accounts: 2,
  pdf: 2,
  einvoice: 1,
  // The payment codes (EPC QR, Swiss QR-bill): pure payloads and SVG drawings, over bwip-js.
  payments: 1,
  signing: 1,
  events: 1,
  // Leaves: no imports of ours, or only of other leaves.
  config: 0,
  errors: 0,
  ids: 0,
  logger: 0,
  bounds: 0,
  executable: 0,
  'process-alive': 0,
  'package-root': 0,
  // The supported Node range (plain JavaScript: an unsupported Node must be able to run it).
  'node-support': 0,
  'worker-pool': 0,
  // Types-only JSON shapes the API, its events and the admin UI share.
  shapes: 0,
  // OpenTelemetry (spans.ts: only @opentelemetry/api): below every layer, the logger's mixin included.
  telemetry: -1,
  // The settings groups config.ts merges into its one table (declarations and parsers; no reads of the environment).
  settings: -1,
};

export interface UpwardImport {
  file: string;
  imports: string;
  from: string;
  to: string;
}

/** The layer a server/src-relative path belongs to: its top folder, or its module name at the root. */
export function layerOf(relative: string): string {
  const [top] = relative.split('/');
  return top!.replace(/\.(ts|mts|mjs)$/, '');
}

/** The relative module specifiers a file imports or re-exports (type-only imports included: a type is a dependency too). */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/gm)) found.push(match[1]!);
  for (const match of source.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) found.push(match[1]!);
  return found;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|mts|mjs)$/.test(entry.name) && !/\.d\.m?ts$/.test(entry.name)) yield full;
  }
}

/** Every import in server/src that runs upward, or names a layer the table does not know. */
export function upwardImports(root = SERVER): { upward: UpwardImport[]; unknown: string[] } {
  const upward: UpwardImport[] = [];
  const unknown = new Set<string>();
  for (const file of sourceFiles(root)) {
    const relative = path.relative(root, file).split(path.sep).join('/');
    const from = layerOf(relative);
    if (!(from in LAYERS)) unknown.add(from);
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      const target = path
        .relative(root, path.resolve(path.dirname(file), specifier))
        .split(path.sep)
        .join('/');
      if (target.startsWith('..')) continue; // outside server/src (package.json and the like)
      const to = layerOf(target);
      if (!(to in LAYERS)) unknown.add(to);
      else if (from !== to && from in LAYERS && LAYERS[from]! < ROOT && LAYERS[to]! >= LAYERS[from]!)
        upward.push({ file: relative, imports: target, from, to });
    }
  }
  return { upward, unknown: [...unknown] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { upward, unknown } = upwardImports();
  for (const edge of upward)
    console.log(`${edge.file} imports ${edge.imports}: ${edge.from} (${LAYERS[edge.from]}) may not import ${edge.to} (${LAYERS[edge.to]})`);
  for (const layer of unknown) console.log(`${layer}: not in scripts/check-layers.ts's LAYERS table`);
  process.exitCode = upward.length + unknown.length > 0 ? 1 : 0;
}
