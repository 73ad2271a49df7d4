// CPU time and memory of a process tree, read from /proc (Linux).

import { readdirSync, readFileSync } from 'node:fs';

function children(): Map<number, number[]> {
  const byParent = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      byParent.set(ppid, [...(byParent.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  return byParent;
}

function tree(root: number): number[] {
  const byParent = children();
  const all = [root];
  for (let i = 0; i < all.length; i++) all.push(...(byParent.get(all[i]!) ?? []));
  return all;
}

/** CPU of one process alone (its own threads, not its children), in ms. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
}

/**
 * CPU of root and all its live descendants, in ms: utime + stime, plus cutime + cstime so that
 * renderer processes which exited (and were reaped by a live parent) still count.
 */
export function processTreeCpuMs(root: number): number {
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  let total = 0;
  for (const pid of tree(root)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * tick;
    } catch {
      // Gone.
    }
  }
  return total;
}

/** RSS of the root process and the summed PSS (fair share) of its descendants, in bytes. */
export function processTreeMemory(root: number): { rootRss: number; childrenPss: number } {
  const kb = (text: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) * 1024;
  const rootRss = kb(readFileSync(`/proc/${root}/status`, 'utf8'), 'VmRSS');
  let childrenPss = 0;
  for (const pid of tree(root).slice(1)) {
    try {
      childrenPss += kb(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss');
    } catch {
      // Gone.
    }
  }
  return { rootRss, childrenPss };
}
