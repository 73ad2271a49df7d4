// A line diff of two texts in unified form (" ", "-", "+" prefixes, hunks with 3 lines of
// context), for comparing a template version with the current HTML. Common head and tail are
// cut first; the middle is an LCS when it is small enough, else shown as replaced whole, so a
// 5 MB template cannot make the server do quadratic work.

const CONTEXT = 3;
const MAX_LCS_CELLS = 4_000_000;

export type DiffLine = { op: ' ' | '-' | '+'; text: string };

/** The unified diff of before -> after; "" when they are equal. */
export function unifiedDiff(before: string, after: string): string {
  const lines = diffLines(before.split('\n'), after.split('\n'));
  if (!lines.some((line) => line.op !== ' ')) return '';
  const keep = lines.map(() => false);
  lines.forEach((line, at) => {
    if (line.op === ' ') return;
    for (let near = Math.max(0, at - CONTEXT); near <= Math.min(lines.length - 1, at + CONTEXT); near++) keep[near] = true;
  });
  const out: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (let at = 0; at < lines.length; ) {
    if (!keep[at]) {
      if (lines[at]!.op !== '+') oldLine++;
      if (lines[at]!.op !== '-') newLine++;
      at++;
      continue;
    }
    const start = at;
    while (at < lines.length && keep[at]) at++;
    const hunk = lines.slice(start, at);
    const oldCount = hunk.filter((line) => line.op !== '+').length;
    const newCount = hunk.filter((line) => line.op !== '-').length;
    out.push(`@@ -${oldLine},${oldCount} +${newLine},${newCount} @@`, ...hunk.map((line) => line.op + line.text));
    oldLine += oldCount;
    newLine += newCount;
  }
  return out.join('\n');
}

/** Every line of both, marked kept, removed or added. */
export function diffLines(a: string[], b: string[]): DiffLine[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const same = (lines: string[]) => lines.map((text): DiffLine => ({ op: ' ', text }));
  return [...same(a.slice(0, head)), ...diffMiddle(midA, midB), ...same(a.slice(a.length - tail))];
}

function diffMiddle(a: string[], b: string[]): DiffLine[] {
  const removed = a.map((text): DiffLine => ({ op: '-', text }));
  const added = b.map((text): DiffLine => ({ op: '+', text }));
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_LCS_CELLS) return [...removed, ...added];
  // lengths[i][j]: the LCS of a[i..] and b[j..], in one flat array.
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] = a[i] === b[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', text: a[i]! });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) out.push({ op: '-', text: a[i++]! });
    else out.push({ op: '+', text: b[j++]! });
  }
  while (i < a.length) out.push({ op: '-', text: a[i++]! });
  while (j < b.length) out.push({ op: '+', text: b[j++]! });
  return out;
}
