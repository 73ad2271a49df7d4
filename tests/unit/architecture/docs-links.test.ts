// The README stays a front door (under 300 lines) and every relative link in README.md and docs/*.md
// leads somewhere: the file exists and, for `#anchor`, a heading of that file has that slug under
// GitHub's rules (lower-case, spaces to '-', punctuation dropped, repeats numbered -1, -2, ...).

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const README_MAX_LINES = 300;

/** The text outside fenced code blocks, where headings and links are markdown (not shell comments). */
export function prose(markdown: string): string[] {
  let fence: string | null = null;
  const lines: string[] = [];
  for (const line of markdown.split('\n')) {
    const mark = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (mark && (fence === null || mark.startsWith(fence))) fence = fence === null ? mark.slice(0, 3) : null;
    else if (fence === null) lines.push(line);
  }
  return lines;
}

/** GitHub's anchor for a heading's text: markup and punctuation dropped, spaces to '-'. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/ /g, '-');
}

export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Relative links of a markdown file that lead nowhere, as "file: target (why)". */
export function brokenLinks(file: string, markdown = readFileSync(file, 'utf8')): string[] {
  const broken: string[] = [];
  const text = prose(markdown)
    .join('\n')
    .replace(/`[^`\n]*`/g, '');
  for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and the like
    const [where = '', anchor] = target.split('#', 2);
    const name = `${path.relative(ROOT, file)}: ${target}`;
    const resolved = path.resolve(path.dirname(file), decodeURI(where));
    if (where !== '' && !existsSync(resolved)) broken.push(`${name} (no such file)`);
    else if (anchor !== undefined && (where === '' || (resolved.endsWith('.md') && statSync(resolved).isFile()))) {
      const headings = anchorsOf(where === '' ? markdown : readFileSync(resolved, 'utf8'));
      if (!headings.has(anchor)) broken.push(`${name} (no such heading)`);
    }
  }
  return broken;
}

const pages = [
  path.join(ROOT, 'README.md'),
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(ROOT, 'docs', name)),
];

test(`README.md is a front door: under ${README_MAX_LINES} lines`, () => {
  const lines = readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length - 1;
  assert.ok(lines < README_MAX_LINES, `README.md has ${lines} lines; move detail into docs/`);
});

test('every relative link in README.md and docs/*.md leads to a file and heading that exist', () => {
  assert.deepEqual(
    pages.flatMap((page) => brokenLinks(page)),
    [],
  );
});

test('every page in docs/ is listed in docs/README.md, and the README links the index', () => {
  const index = readFileSync(path.join(ROOT, 'docs', 'README.md'), 'utf8');
  const unlisted = pages.map((page) => path.basename(page)).filter((name) => name !== 'README.md' && !index.includes(`](${name})`));
  assert.deepEqual(unlisted, []);
  assert.ok(readFileSync(path.join(ROOT, 'README.md'), 'utf8').includes('](docs/README.md)'), 'README.md links docs/README.md');
});

test('slugs follow GitHub: punctuation dropped, code and links unwrapped, repeats numbered', () => {
  assert.equal(slug('Transforming a PDF: POST /v1/pdf/transform'), 'transforming-a-pdf-post-v1pdftransform');
  assert.equal(slug('Hot folder (WATCH_DIR)'), 'hot-folder-watch_dir');
  assert.equal(slug('OpenTelemetry: on only with an endpoint, free when off'), 'opentelemetry-on-only-with-an-endpoint-free-when-off');
  assert.equal(slug('The `sign` option — PAdES'), 'the-sign-option--pades');
  const anchors = anchorsOf('# A\n```sh\n# not a heading\n```\n## Limits\n### Limits\n');
  assert.deepEqual([...anchors], ['a', 'limits', 'limits-1']);
});

test('a link to a missing file or heading is reported; code spans and fences are not links', () => {
  const probe = path.join(ROOT, 'docs', 'probe.md'); // not written: its links resolve as a page's in docs/ would
  const text = '# Probe\n[ok](#probe) [ok2](api.md#errors) [gone](nowhere.md) [bad](api.md#no-such) [self](#nope)\n`[code](x.md)`\n```\n[fenced](y.md)\n```\n';
  assert.deepEqual(
    brokenLinks(probe, text).map((line) => line.replace(/^docs\/probe\.md: /, '')),
    ['nowhere.md (no such file)', 'api.md#no-such (no such heading)', '#nope (no such heading)'],
  );
});
