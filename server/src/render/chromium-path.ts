// Finds the Chromium to launch (docs/operations.md#chromium-and-fonts): CHROME_PATH if set; else the
// headless shell that @sparticuz/chromium carries in its tarball, unpacked once into a
// versioned cache folder; else a system Chromium. It does not launch anything.

import { createRequire } from 'node:module';
import { createReadStream, createWriteStream, existsSync, type Stats } from 'node:fs';
import { lstat, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { createBrotliDecompress } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import os from 'node:os';
import path from 'node:path';
import { isExecutable } from '../executable.ts';

export interface ChromiumExecutable {
  path: string;
  /** Where it came from, for the start-up log and /health. */
  source: 'CHROME_PATH' | '@sparticuz/chromium' | 'system';
  /** A headless shell takes the old `--headless` switch; a full Chromium takes `--headless=new`. */
  isHeadlessShell: boolean;
}

export class ChromiumNotFoundError extends Error {
  override readonly name = 'ChromiumNotFoundError';
}

const SYSTEM_CANDIDATES = [
  // Debian's headless shell: launched directly, the /usr/bin wrapper keeps a process in between.
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
];

/** Resolves the Chromium executable, unpacking the npm-shipped one on first use. */
export async function findChromium(chromePath: string): Promise<ChromiumExecutable> {
  if (chromePath) {
    if (!(await isExecutable(chromePath))) {
      throw new ChromiumNotFoundError(`CHROME_PATH=${chromePath} is not an executable file`);
    }
    return { path: chromePath, source: 'CHROME_PATH', isHeadlessShell: /headless[-_]shell/.test(path.basename(chromePath)) || isShippedUnpack(chromePath) };
  }
  const shipped = await unpackShippedChromium();
  if (shipped) return { path: shipped, source: '@sparticuz/chromium', isHeadlessShell: true };
  for (const candidate of SYSTEM_CANDIDATES) {
    if (await isExecutable(candidate)) {
      return { path: candidate, source: 'system', isHeadlessShell: candidate.includes('headless-shell') };
    }
  }
  throw new ChromiumNotFoundError(
    'no Chromium found: run `npm ci` (it installs @sparticuz/chromium on Linux x64), install a system chromium, or set CHROME_PATH',
  );
}

/**
 * Whether a path is one of our unpacks of the npm-shipped headless shell (named `chromium`, in a
 * SHIPPED_CACHE folder), as when a bench or a test passes it on as CHROME_PATH.
 */
function isShippedUnpack(file: string): boolean {
  return path.basename(file) === 'chromium' && path.resolve(file).split(path.sep).includes(SHIPPED_CACHE);
}

const SHIPPED_CACHE = 'quire-chromium';

/**
 * Unpacks @sparticuz/chromium's brotli-compressed binary into a folder named for the package
 * version. Its own executablePath() is not used: it unpacks to a fixed /tmp/chromium and returns
 * whatever is already there with no version check
 * (docs/decisions.md#the-npm-headless-shell-with-our-own-flag-list), and it sets up AWS Lambda
 * library paths we do not want.
 */
async function unpackShippedChromium(): Promise<string | undefined> {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  let packageDir: string;
  try {
    const require = createRequire(import.meta.url);
    packageDir = path.resolve(path.dirname(require.resolve('@sparticuz/chromium')), '..', '..');
  } catch {
    return undefined;
  }
  const archive = path.join(packageDir, 'bin', 'chromium.br');
  if (!existsSync(archive)) return undefined;
  const { version } = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };

  for (const cacheRoot of [path.join(packageDir, '..', '..', '.cache'), os.tmpdir()]) {
    const cacheDir = path.join(cacheRoot, SHIPPED_CACHE);
    const target = path.join(cacheDir, version, 'chromium');
    // /tmp is shared with every user of the machine: a binary there is only ours if we own it and
    // its folders and nobody else can write to them; otherwise anyone could have planted it.
    const shared = cacheRoot === os.tmpdir();
    if (shared && existsSync(cacheDir) && !(await isPrivateTo(process.getuid?.(), target, cacheDir))) continue;
    if (await isCompleteUnpack(target, archive)) return target;
    try {
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      if (shared && !(await isPrivateTo(process.getuid?.(), path.dirname(target), cacheDir))) continue;
      // Unpack beside the target and rename: a crash mid-unpack never leaves a half binary.
      const partial = `${target}.${process.pid}.partial`;
      await pipeline(createReadStream(archive), createBrotliDecompress(), createWriteStream(partial, { mode: 0o755 }));
      await rename(partial, target);
      return target;
    } catch {
      await rm(`${target}.${process.pid}.partial`, { force: true });
      // Not writable (read-only install): try the next cache root.
    }
  }
  return undefined;
}

/**
 * Whether `file` (if it exists) and every folder from it up to `top` are real entries (no
 * symbolic links) owned by uid and writable by nobody else. No uid (Windows): true.
 */
export async function isPrivateTo(uid: number | undefined, file: string, top: string): Promise<boolean> {
  if (uid === undefined) return true;
  const chain: string[] = [];
  for (let at = path.resolve(file); ; at = path.dirname(at)) {
    chain.push(at);
    if (at === path.resolve(top) || at === path.dirname(at)) break;
  }
  for (const entry of chain) {
    let info: Stats;
    try {
      info = await lstat(entry);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && entry === chain[0]) continue;
      return false;
    }
    if (info.isSymbolicLink() || info.uid !== uid || (info.mode & 0o022) !== 0) return false;
  }
  return true;
}

async function isCompleteUnpack(target: string, archive: string): Promise<boolean> {
  try {
    const [binary, packed] = await Promise.all([stat(target), stat(archive)]);
    // The binary is several times its brotli archive; a truncated file would be far smaller.
    return binary.size > packed.size && (await isExecutable(target));
  } catch {
    return false;
  }
}
