// The move of the app's own files to the folder of its product name, once: versions before
// productName "Quire" kept them in <appData>/quire. At start-up, before the server opens anything,
// each of Quire's own entries (config.json, data/, the remembered port) still in the old folder is
// renamed into the new one when the new one has no entry of that name, and no Quire runs on the
// old folder. Renames, not copies: atomic on one disk, nothing half-moved; Chromium's own caches
// stay behind. On a case-insensitive disk (macOS, Windows) both names are one folder: nothing to do.
// No Electron here.

import { existsSync, mkdirSync, readlinkSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { isProcessRunning } from '../server/src/process-alive.ts';

export type MoveOutcome = { moved: string[]; kept: string[]; reason?: 'nothing-to-move' | 'same-folder' | 'old-folder-in-use' };

/** Renames Quire's entries of `legacy` into `current` where that is safe; says what moved and what stayed. */
export function moveLegacyDataFolder(legacy: string, current: string, entries: readonly string[]): MoveOutcome {
  if (!existsSync(legacy)) return { moved: [], kept: [], reason: 'nothing-to-move' };
  if (existsSync(current)) {
    const [a, b] = [statSync(legacy), statSync(current)];
    if (a.ino === b.ino && a.dev === b.dev) return { moved: [], kept: [], reason: 'same-folder' };
  }
  const present = entries.filter((entry) => existsSync(path.join(legacy, entry)));
  if (present.length === 0) return { moved: [], kept: [], reason: 'nothing-to-move' };
  if (isHeldByRunningApp(legacy)) return { moved: [], kept: present, reason: 'old-folder-in-use' };
  mkdirSync(current, { recursive: true });
  const outcome: MoveOutcome = { moved: [], kept: [] };
  for (const entry of present) {
    const target = path.join(current, entry);
    // The new folder's own entry wins: it is what the app used since.
    if (existsSync(target)) {
      outcome.kept.push(entry);
      continue;
    }
    try {
      renameSync(path.join(legacy, entry), target);
      outcome.moved.push(entry);
    } catch {
      outcome.kept.push(entry);
    }
  }
  return outcome;
}

/** Chromium's single-instance lock (Linux, macOS): a symlink "<host>-<pid>" while an app runs on the folder. */
function isHeldByRunningApp(folder: string): boolean {
  try {
    const target = readlinkSync(path.join(folder, 'SingletonLock'));
    const pid = Number(target.slice(target.lastIndexOf('-') + 1));
    return Number.isInteger(pid) && pid > 0 && isProcessRunning(pid);
  } catch {
    return false;
  }
}
