// The end of `npm test`: each lane's time and the 10 slowest test files over every lane, from
// what scripts/run-tests.ts wrote to test-results/timings/. `--reset` (the start of `npm test`)
// marks the start, so the summary covers lanes of this run only (the lane files stay: the next
// run orders its files by them).

import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const folder = path.join('test-results', 'timings');
const mark = path.join(folder, 'run-started');
if (process.argv.includes('--reset')) {
  mkdirSync(folder, { recursive: true });
  writeFileSync(mark, new Date().toISOString());
} else if (existsSync(folder)) {
  const since = existsSync(mark) ? statSync(mark).mtimeMs : 0;
  const lanes = readdirSync(folder)
    .filter((name) => name.endsWith('.json') && statSync(path.join(folder, name)).mtimeMs >= since)
    .map((name) => JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as Lane);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
  console.log('\nTest lanes (time; the lanes of `npm test` run together in one pool, so theirs is when their last file ended):');
  for (const lane of lanes) {
    const cpu = lane.cpuMs === undefined ? '' : `, ${seconds(lane.cpuMs).trim()} of CPU`;
    const files = lane.files.length > 0 ? `${lane.files.length} files, ` : '';
    const fileTime = lane.fileMs === undefined ? '' : `, ${seconds(lane.fileMs).trim()} of file time`;
    console.log(`${seconds(lane.ms)}  ${lane.label}: ${files}${lane.concurrency} at once, load average ${lane.load}${cpu}${fileTime}`);
  }
  console.log('Slowest 10 test files:');
  const files = lanes.flatMap((lane) => lane.files.map((file) => ({ ...file, lane: lane.label })));
  for (const file of files.sort((a, b) => b.ms - a.ms).slice(0, 10)) console.log(`${seconds(file.ms)}  ${file.file} (${file.lane})`);
  const costly = files.filter((file) => file.cpuMs !== undefined).sort((a, b) => b.cpuMs! - a.cpuMs!);
  if (costly.length > 0) {
    console.log('Most CPU, 10 test files (their own processes, servers and Chromiums; a shared server is not in them):');
    for (const file of costly.slice(0, 10)) console.log(`${seconds(file.cpuMs!)}  ${file.file} (${file.lane})`);
  }
}

interface Lane {
  label: string;
  ms: number;
  /** CPU time of the lane's processes (absent on other systems than Linux, and in older records). */
  cpuMs?: number;
  /** The sum of its files' times (when it ran together with other lanes). */
  fileMs?: number;
  concurrency: number;
  load: string;
  files: { file: string; ms: number; ok: boolean; cpuMs?: number }[];
}
