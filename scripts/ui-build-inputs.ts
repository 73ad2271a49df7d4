// Whether dist/ui is the build of the UI as it is now. A build records what it was made from
// (every module of its graph, ui/src and the packages it bundles, the server modules the UI imports,
// the public files, the config, the installed packages' lock) with each file's SHA-256 in
// dist/ui/build-inputs.json; the UI is current while every one of them reads the same.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';

const RECORD = 'build-inputs.json';
const ROOT = path.resolve(import.meta.dirname, '..');
export const UI_OUT_DIR = path.join(ROOT, 'dist', 'ui');

interface BuildInputs {
  /** Absolute path -> SHA-256 of the file's bytes. */
  files: Record<string, string>;
  /** The public folder's file names when built: a file added there is a change too. */
  publicFiles: string[];
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function publicFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** What the build read besides its module graph: the config, the public files, what npm installed. */
function fixedInputs(configFile: string | undefined, publicDir: string): string[] {
  const installed = path.join(ROOT, 'node_modules', '.package-lock.json');
  return [...(configFile ? [configFile] : []), ...publicFiles(publicDir), ...(existsSync(installed) ? [installed] : [])];
}

/** The vite plugin that writes the record once the build is written (emptyOutDir removed the last one first). */
export function recordBuildInputs(): Plugin {
  let outDir = UI_OUT_DIR;
  let publicDir = '';
  let configFile: string | undefined;
  return {
    name: 'quire-record-build-inputs',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      publicDir = config.publicDir;
      configFile = config.configFile;
    },
    async writeBundle() {
      // Module ids are paths, some with a query (?url) or virtual ("\0..."): the files behind them count.
      const modules = [...this.getModuleIds()].map((id) => id.split('?')[0]!).filter((id) => path.isAbsolute(id) && existsSync(id));
      const files = Object.fromEntries([...new Set([...modules, ...fixedInputs(configFile, publicDir)])].sort().map((file) => [file, sha256(file)]));
      const record: BuildInputs = { files, publicFiles: publicFiles(publicDir) };
      await writeFile(path.join(outDir, RECORD), `${JSON.stringify(record, null, 1)}\n`);
    },
  };
}

/** Why dist/ui is not the build of the UI as it stands now, or undefined when it is. */
export function staleUiBuild(outDir = UI_OUT_DIR, publicDir = path.join(ROOT, 'ui', 'public')): string | undefined {
  const recordFile = path.join(outDir, RECORD);
  if (!existsSync(path.join(outDir, 'index.html')) || !existsSync(recordFile)) return 'not built (or built before its inputs were recorded)';
  const record = JSON.parse(readFileSync(recordFile, 'utf8')) as BuildInputs;
  if (JSON.stringify(record.publicFiles) !== JSON.stringify(publicFiles(publicDir))) return 'a public file was added or removed';
  for (const [file, hash] of Object.entries(record.files)) {
    if (!existsSync(file)) return `${path.relative(ROOT, file)} is gone`;
    if (sha256(file) !== hash) return `${path.relative(ROOT, file)} changed`;
  }
  return undefined;
}
