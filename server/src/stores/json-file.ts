// One JSON file of a store (keys.json, a usage file): read and validated once, replaced whole
// through the one durable-write path (stores/durable-file.ts). A file that does not parse or
// validate is reported by name (StoreReadError) and never replaced: the caller stops or fails
// only the calls that need it. Writes arriving while one is in flight are coalesced.

import { readFile } from 'node:fs/promises';
import { CoalescingWriter } from './coalescing-writer.ts';
import { removeAbandonedTempFiles, StoreReadError, writeFileDurably } from './durable-file.ts';

export { StoreReadError };

/** Checks parsed JSON; returns what is wrong with it, or undefined when it is valid. */
export type Validate = (data: unknown) => string | undefined;

export class JsonFile<T> {
  private readonly writer = new CoalescingWriter((text) => writeFileDurably(this.file, text));

  constructor(
    readonly file: string,
    private readonly validate: Validate,
  ) {}

  /** Reads, parses and validates the file; undefined when it does not exist yet. */
  async read(): Promise<T | undefined> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return parseStoreJson<T>(this.file, text, this.validate);
  }

  /** Writes data (serialized now); resolves once it, or newer data, is durable. */
  write(data: T): Promise<void> {
    return this.writer.write(JSON.stringify(data, null, 2));
  }

  /** Removes temporary files left by processes that died mid-write. */
  removeStaleTempFiles(): Promise<void> {
    return removeAbandonedTempFiles(this.file);
  }
}

/** Parses and validates a store file's text, throwing StoreReadError naming the file. */
export function parseStoreJson<T>(file: string, text: string, validate: Validate): T {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new StoreReadError(file, `not valid JSON (${(error as Error).message})`);
  }
  const problem = validate(data);
  if (problem) throw new StoreReadError(file, problem);
  return data as T;
}

/** Opens a JSON store file: removes abandoned temp files, reads it (defaultData when new). */
export async function openJsonFile<T>(file: string, validate: Validate, defaultData: T): Promise<{ file: JsonFile<T>; data: T }> {
  const json = new JsonFile<T>(file, validate);
  await json.removeStaleTempFiles();
  return { file: json, data: (await json.read()) ?? defaultData };
}
