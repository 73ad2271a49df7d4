// The hot folder (WATCH_DIR): name.json (a render request, as the body of POST /v1/pdf), name.html
// or name.md, or a file of another kind the app takes (office files: name.docx, ...; name.pdf
// through settings.json's transform) dropped into in/ becomes out/name.pdf, or failed/name.json with {code, detail} (the input kept beside it:
// failed/name.html, failed/name.md, failed/name.docx, or failed/name.request.json).
// WATCH_DIR/settings.json names the key the renders are charged to ({"key_id": "key_..."}) and
// may hold entries the app reads for kinds of file (its "pdf" transform: parseSettings).
// Durability: a file is claimed by renaming it into processing/ before any work, and leaves
// processing/ only once its result is on disk, so a stop or crash loses nothing: at start-up,
// claimed files are rendered again (unless their PDF was already written). Files still being
// written are not picked up: a file is taken once its size and time are unchanged over two scans,
// and names starting with "." or ending in .tmp/.part/.crdownload/~ are never taken (write under
// such a name, then rename). It polls (fs.watch misses events on network shares) and renders one
// file at a time at background priority, so interactive renders stay ahead of it.

import { mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import { writeFileDurably } from '../stores/durable-file.ts';
import { describeError } from '../wire/error-mapping.ts';

export const HOT_FOLDER_SETTINGS = 'settings.json';
/** Larger files fail at once (payload_too_large), as the API's body limit would refuse them. */
export const MAX_INPUT_BYTES = 10 * 1024 * 1024;
const SUBFOLDERS = ['in', 'processing', 'out', 'failed'] as const;
const MARKDOWN_EXTENSION = /^\.(md|markdown)$/i;
const IN_PROGRESS_NAME = /^\.|\.(tmp|part|crdownload|download)$|~$/i;
/** A render that died with the renderer is tried this many times before it fails. */
const CRASH_TRIES = 3;

/** How a failed render is handled: tried again at the next scan (always, or a few times), or failed. */
export type Retry = 'always' | 'few' | 'never';

/** What a render leaves for the hot folder to write: the bytes, and the stored copy's id if any. */
export interface HotFolderResult {
  pdf: Uint8Array;
  documentId?: string;
}

/**
 * Request: a validated render request; Caller: the account renders are charged to; Settings: what
 * parseSettings makes of settings.json (services/ and http/ decide all three).
 */
export interface HotFolderDeps<Request, Caller, Settings = undefined> {
  dir: string;
  render(input: Request, caller: Caller): Promise<HotFolderResult>;
  accountById(keyId: string): Promise<Caller | undefined>;
  /** Validates a request file's JSON (or {html} for name.html, {markdown} for name.md) as the API validates a POST /v1/pdf body; throws the API's error. */
  parseRequest(json: unknown): Request;
  /** Checks settings.json beyond its key_id (throws the API's error naming the field); files wait in in/ while it throws. */
  parseSettings?(settings: Record<string, unknown>): Settings;
  /** The request for a file of another kind (an office file, a PDF to transform), validated; undefined when the folder does not take it. */
  requestForFile?(name: string, bytes: Uint8Array, settings: Settings | undefined): Request | undefined;
  /** The size limit of a file of this name, when not MAX_INPUT_BYTES (a PDF to transform takes the PDF input limit). */
  maxBytesOf?(name: string, settings: Settings | undefined): number | undefined;
  /** How the kinds of file taken are named in an error about one that is not ("name.json (a render request) or name.html"). */
  acceptedKinds?: string;
  /** 'always' when the renderer was busy or stopping, 'few' when it crashed, else 'never'. */
  retryOf(error: unknown): Retry;
  log: Logger;
  intervalMs?: number;
  now?: () => Date;
}

interface Seen {
  size: number;
  mtimeMs: number;
}

/** A live key and the settings that go with it. */
interface Configuration<Caller, Settings> {
  caller: Caller;
  settings: Settings | undefined;
}

export class HotFolder<Request, Caller, Settings = undefined> {
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private stopped = false;
  private readonly seen = new Map<string, Seen>();
  private readonly crashes = new Map<string, number>();
  private unconfigured: string | undefined;

  private constructor(private readonly deps: HotFolderDeps<Request, Caller, Settings>) {}

  /** Makes the folders, puts claimed files of a previous run back in line, and starts polling. */
  static async start<Request, Caller, Settings = undefined>(deps: HotFolderDeps<Request, Caller, Settings>): Promise<HotFolder<Request, Caller, Settings>> {
    for (const folder of SUBFOLDERS) await mkdir(path.join(deps.dir, folder), { recursive: true });
    const folder = new HotFolder(deps);
    await folder.recover();
    folder.schedule(0);
    deps.log.info({ watch_dir: deps.dir }, 'hot folder: watching in/');
    return folder;
  }

  /** Stops polling and waits for the file being rendered; a file cut short stays in processing/ for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.scanning;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.scanning = this.scan()
        .catch((error: unknown) => this.deps.log.error({ err: error }, 'hot folder: scan failed'))
        .finally(() => this.schedule(this.deps.intervalMs ?? 1000));
    }, delayMs);
  }

  private folder(name: (typeof SUBFOLDERS)[number], file = ''): string {
    return path.join(this.deps.dir, name, file);
  }

  /** Files left in processing/ by a stop or crash: done if their PDF is there, else rendered first. */
  private async recover(): Promise<void> {
    for (const name of await readdir(this.folder('processing'))) {
      if (IN_PROGRESS_NAME.test(name)) continue;
      const claimed = this.folder('processing', name);
      const pdf = this.folder('out', `${baseName(name)}.pdf`);
      const [claimedStat, pdfStat] = await Promise.all([stat(claimed), stat(pdf).catch(() => undefined)]);
      if (pdfStat && pdfStat.mtimeMs >= claimedStat.mtimeMs) {
        await rm(claimed, { force: true });
        continue;
      }
      this.deps.log.warn({ file: name }, 'hot folder: rendering again a file a previous run had claimed');
    }
  }

  private async scan(): Promise<void> {
    // Claimed files first: those a previous run left, and those put back after a transient error.
    for (const name of (await readdir(this.folder('processing'))).sort()) {
      if (this.stopped) return;
      if (!IN_PROGRESS_NAME.test(name)) await this.process(name);
    }
    const ready = await this.readyFiles();
    if (ready.length === 0) return;
    const configuration = await this.configuration();
    if (!configuration) return;
    for (const name of ready) {
      if (this.stopped) return;
      try {
        // The claim: from here the file is ours, and survives a crash in processing/.
        await rename(this.folder('in', name), this.folder('processing', name));
      } catch {
        continue; // still locked by its writer (Windows), or taken away: next scan
      }
      this.seen.delete(name);
      await this.process(name, configuration);
    }
  }

  /** Names in in/ whose size and time have not changed since the previous scan. */
  private async readyFiles(): Promise<string[]> {
    const ready: string[] = [];
    const present = new Set<string>();
    for (const entry of await readdir(this.folder('in'), { withFileTypes: true })) {
      if (!entry.isFile() || IN_PROGRESS_NAME.test(entry.name)) continue;
      present.add(entry.name);
      const now = await stat(this.folder('in', entry.name)).catch(() => undefined);
      if (!now) continue;
      const before = this.seen.get(entry.name);
      this.seen.set(entry.name, { size: now.size, mtimeMs: now.mtimeMs });
      if (before && before.size === now.size && before.mtimeMs === now.mtimeMs) ready.push(entry.name);
    }
    for (const name of this.seen.keys()) if (!present.has(name)) this.seen.delete(name);
    return ready.sort();
  }

  /**
   * The account of settings.json's key_id and its other settings; undefined (files wait in in/,
   * logged once) until it names a live key and its other entries are valid.
   */
  private async configuration(): Promise<Configuration<Caller, Settings> | undefined> {
    const file = path.join(this.deps.dir, HOT_FOLDER_SETTINGS);
    let problem: string;
    try {
      const settings = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      const caller = typeof settings.key_id === 'string' ? await this.deps.accountById(settings.key_id) : undefined;
      if (caller) {
        const parsed = this.deps.parseSettings?.(settings);
        this.unconfigured = undefined;
        return { caller, settings: parsed };
      }
      problem = typeof settings.key_id === 'string' ? `key ${settings.key_id} does not exist or is revoked` : 'it names no key_id';
    } catch (error) {
      problem = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : `it cannot be used: ${(error as Error).message}`;
    }
    if (this.unconfigured !== problem)
      this.deps.log.warn(
        { file, problem },
        `hot folder: files wait in in/ until ${HOT_FOLDER_SETTINGS} names a live key ({"key_id": "key_..."}) and its other entries are valid`,
      );
    this.unconfigured = problem;
    return undefined;
  }

  /** Renders one claimed file to out/, or records why not in failed/; a transient failure leaves it claimed for the next scan. */
  private async process(name: string, known?: Configuration<Caller, Settings>): Promise<void> {
    const claimed = this.folder('processing', name);
    const configuration = known ?? (await this.configuration());
    if (!configuration) return;
    let rendered: HotFolderResult;
    try {
      rendered = await this.deps.render(await this.readInput(claimed, name, configuration.settings), configuration.caller);
    } catch (error) {
      const retry = this.deps.retryOf(error);
      const tries = (this.crashes.get(name) ?? 0) + (retry === 'few' ? 1 : 0);
      if (retry === 'always' || (retry === 'few' && tries < CRASH_TRIES)) {
        this.crashes.set(name, tries);
        this.deps.log.warn({ file: name, err: (error as Error).message }, 'hot folder: the renderer could not take the file now; it is tried again');
        return;
      }
      this.crashes.delete(name);
      await this.fail(name, claimed, error);
      return;
    }
    this.crashes.delete(name);
    await writeFileDurably(this.folder('out', `${baseName(name)}.pdf`), rendered.pdf);
    await rm(claimed, { force: true });
    this.deps.log.info({ file: name, bytes: rendered.pdf.byteLength, document_id: rendered.documentId }, 'hot folder: rendered');
  }

  private async readInput(file: string, name: string, settings: Settings | undefined): Promise<Request> {
    const { size } = await stat(file);
    const limit = this.deps.maxBytesOf?.(name, settings) ?? MAX_INPUT_BYTES;
    if (size > limit)
      throw new HotFolderInputError('payload_too_large', `${name} is ${size} bytes; the largest such file the hot folder takes is ${limit} bytes`);
    const bytes = await readFile(file);
    const text = bytes.toString('utf8');
    const extension = path.extname(name).toLowerCase();
    if (extension === '.html' || extension === '.htm') return this.deps.parseRequest({ html: text });
    if (MARKDOWN_EXTENSION.test(extension)) return this.deps.parseRequest({ markdown: text });
    if (extension !== '.json') {
      const request = this.deps.requestForFile?.(name, new Uint8Array(bytes), settings);
      if (request !== undefined) return request;
      throw new HotFolderInputError(
        'invalid_request',
        `${name}: the hot folder takes ${this.deps.acceptedKinds ?? 'name.json (a render request), name.html or name.md'}`,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new HotFolderInputError('invalid_json', `${name} is not valid JSON: ${(error as Error).message}`);
    }
    return this.deps.parseRequest(json);
  }

  /** The file's {code, detail} as the API would answer; an error the contract has no code for is logged whole. */
  private describe(error: unknown, name: string): { code: string; detail: string } {
    const record = describeError(error);
    if (record.code === 'internal_error') this.deps.log.error({ err: error, file: name }, 'hot folder file failed');
    return record;
  }

  /** failed/name.json: the error; the input is kept beside it (failed/name.html or failed/name.request.json). */
  private async fail(name: string, claimed: string, error: unknown): Promise<void> {
    const { code, detail } = error instanceof HotFolderInputError ? error : this.describe(error, name);
    // Only a request file is renamed (name.request.json): a page, a Markdown file or an office file keeps its name.
    const keepsName = path.extname(name).toLowerCase() !== '.json';
    // An error file must not replace the input it reports on (name.json in, failed/name.json out).
    const record = { file: name, code, detail, failed_at: (this.deps.now?.() ?? new Date()).toISOString() };
    await writeFileDurably(this.folder('failed', `${baseName(name)}.json`), `${JSON.stringify(record, null, 2)}\n`);
    await rename(claimed, this.folder('failed', keepsName ? name : `${baseName(name)}.request${path.extname(name)}`));
    this.deps.log.warn({ file: name, code, detail }, 'hot folder: failed');
  }
}

/** A file the hot folder refuses before rendering; code and detail as the API would answer. */
class HotFolderInputError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

function baseName(file: string): string {
  return path.basename(file, path.extname(file));
}
