// An in-memory index of records kept sorted by creation time (then id), listed newest first in
// pages behind an opaque cursor. Finding a page is a binary search plus the page itself, so its
// cost does not grow with the collection; appending a newer record is a push.

import { idPatternSource } from '../ids.ts';

export interface Indexed {
  readonly id: string;
  /** Creation time, milliseconds since the epoch. */
  readonly createdMs: number;
}

export interface Page<T> {
  items: T[];
  /** Opaque; pass it back for the next page. null on the last page. */
  nextCursor: string | null;
}

/** A cursor that was not made by this index (tampered with, or from elsewhere). */
export class InvalidCursorError extends Error {
  constructor() {
    super('cursor is not valid: pass back the next_cursor of a previous page');
    this.name = 'InvalidCursorError';
  }
}

/** Where a record sits in newest-first order; what a cursor carries. */
export interface Position {
  createdMs: number;
  id: string;
}

export class NewestFirstIndex<T extends Indexed> {
  /** Oldest first, so that new records append. */
  private entries: T[] = [];

  get size(): number {
    return this.entries.length;
  }

  /** Replaces the contents with these entries, sorted once (start-up: one sort, not n inserts). */
  load(entries: readonly T[]): void {
    // Entries often come sorted already (the documents index snapshot): check in one pass first.
    let sorted = true;
    for (let i = 1; i < entries.length && sorted; i++) sorted = isBefore(entries[i - 1]!, entries[i]!);
    this.entries = sorted ? [...entries] : [...entries].sort((a, b) => (isBefore(a, b) ? -1 : isBefore(b, a) ? 1 : 0));
  }

  insert(entry: T): void {
    const at = this.lowerBound(entry);
    if (at === this.entries.length) this.entries.push(entry);
    else this.entries.splice(at, 0, entry);
  }

  /** Removes the entry with this position and id; false when it is not there. */
  remove(entry: T): boolean {
    const at = this.lowerBound(entry);
    if (this.entries[at]?.id !== entry.id) return false;
    this.entries.splice(at, 1);
    return true;
  }

  /** Drops every entry that matches, in one pass. */
  removeWhere(matches: (entry: T) => boolean): void {
    this.entries = this.entries.filter((entry) => !matches(entry));
  }

  /** Every entry, oldest first (a copy). */
  all(): T[] {
    return [...this.entries];
  }

  /** Up to `limit` entries older than the cursor (newest first) that pass `include`. */
  page(limit: number, cursor: string | undefined, include: (entry: T) => boolean = () => true): Page<T> {
    let at = cursor === undefined ? this.entries.length : this.lowerBound(decodeCursor(cursor));
    const items: T[] = [];
    while (--at >= 0) {
      const entry = this.entries[at]!;
      if (!include(entry)) continue;
      if (items.length === limit) return { items, nextCursor: encodeCursor(items[items.length - 1]!) };
      items.push(entry);
    }
    return { items, nextCursor: null };
  }

  /** The first index whose entry is not before `position` in (createdMs, id) order. */
  private lowerBound(position: Position): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (isBefore(this.entries[middle]!, position)) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** The index of one key's records in `byKey`, made on its first record. */
export function indexOfKey<T extends Indexed>(byKey: Map<string, NewestFirstIndex<T>>, keyId: string): NewestFirstIndex<T> {
  let index = byKey.get(keyId);
  if (!index) {
    index = new NewestFirstIndex<T>();
    byKey.set(keyId, index);
  }
  return index;
}

function isBefore(a: Position, b: Position): boolean {
  return a.createdMs < b.createdMs || (a.createdMs === b.createdMs && a.id < b.id);
}

/** The opaque cursor for the page after this record (the PostgreSQL stores use the same form). */
export function encodeCursor(position: Position): string {
  return Buffer.from(`${position.createdMs}.${position.id}`, 'utf8').toString('base64url');
}

/** A decoded cursor: the creation time in ms, '.', the id. */
const CURSOR = new RegExp(`^(\\d{1,15})\\.(${idPatternSource()})$`);

/** The position a cursor carries; throws InvalidCursorError for one not made by encodeCursor. */
export function decodeCursor(cursor: string): Position {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new InvalidCursorError();
  return { createdMs: Number(match[1]), id: match[2]! };
}
