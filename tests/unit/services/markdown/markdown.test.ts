// services/markdown/markdown.ts without a browser: the HTML it makes of GitHub-flavoured Markdown, how
// options.css goes in, and how a Markdown template's {{value}} is escaped.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeMarkdownText, markdownToHtml } from '../../../../server/src/services/markdown/markdown.ts';
import { convertMarkdown } from '../../../../server/src/services/markdown/convert.ts';

const body = (html: string) => html.slice(html.indexOf('<article'));

test('GitHub-flavoured Markdown becomes HTML: strikethrough, tables, task lists, autolinks, footnotes, heading ids, highlighted code', () => {
  const html = body(
    markdownToHtml('# API at a glance\n\n~~gone~~ www.example.com[^n]\n\n| a |\n|---|\n| 1 |\n\n- [x] done\n\n```ts\nconst x = 1;\n```\n\n[^n]: Note.\n'),
  );
  assert.match(html, /<h1 id="api-at-a-glance">API at a glance<\/h1>/);
  assert.match(html, /<s>gone<\/s>/);
  assert.match(html, /<a href="http:\/\/www\.example\.com">www\.example\.com<\/a>/);
  assert.match(html, /<td>1<\/td>/);
  assert.match(html, /<input class="task-list-item-checkbox" checked="" disabled="" type="checkbox">/);
  assert.match(html, /<section class="footnotes">/);
  assert.match(html, /<span class="hljs-keyword">const<\/span>/);
});

test('code in a language highlight.js does not know is escaped, not guessed', () => {
  const html = body(markdownToHtml('```nosuchlang\n<b>if</b>\n```\n'));
  assert.match(html, /<code class="language-nosuchlang">&lt;b&gt;if&lt;\/b&gt;/);
});

test('raw HTML passes through as written', () => {
  assert.match(
    body(markdownToHtml('<div class="keep"><img src="https://example.com/x.png"></div>\n')),
    /<div class="keep"><img src="https:\/\/example\.com\/x\.png"><\/div>/,
  );
});

test('the first heading is the title; options.css follows the default stylesheet or replaces it, and cannot close its element', () => {
  const extended = markdownToHtml('Intro\n\n## First <i>one</i>\n\n# Second', { css: 'p{color:red}</style><script>x()</script>' });
  assert.match(extended, /<title>First &lt;i&gt;one&lt;\/i&gt;<\/title>/);
  assert.equal(extended.match(/<style>/g)?.length, 2);
  assert.ok(extended.indexOf('.markdown-body') < extended.indexOf('p{color:red}'), 'the caller’s css comes after the default');
  assert.doesNotMatch(extended, /<\/style><script>/);
  const replaced = markdownToHtml('# x', { css: 'p{}', css_mode: 'replace' });
  assert.equal(replaced.match(/<style>/g)?.length, 1);
  assert.doesNotMatch(replaced, /markdown-body \{|\.hljs-keyword/);
  assert.equal(markdownToHtml('# x', { css_mode: 'replace' }).match(/<style>/g), null);
});

test('a Markdown template value is literal text on its line: HTML and Markdown punctuation and line breaks become references', () => {
  const value = escapeMarkdownText('*a* | [l](javascript:x) <b>\n# h');
  assert.doesNotMatch(value, /[*|[\]()<>\n]|javascript:/);
  assert.match(value, /&#35; h$/);
  const html = body(markdownToHtml(`| c |\n|---|\n| ${value} |\n`));
  assert.match(html, /<td>\*a\* \| \[l\]\(javascript:x\) &lt;b&gt;\n# h<\/td>/);
  assert.equal(escapeMarkdownText('plain words 42'), 'plain words 42');
});

test('a large text is converted on the worker thread: the event loop turns meanwhile, and the HTML is the same', async () => {
  const text = Array.from({ length: 2000 }, (_, i) => `## Part ${i}\n\nSome *text* with \`code\`.\n\n\`\`\`js\nconst n = ${i};\n\`\`\`\n`).join('\n');
  assert.ok(text.length > 64 * 1024);
  let turned = false;
  const converting = convertMarkdown(text, { css: 'h2 { color: red }' });
  setImmediate(() => {
    turned = true;
  });
  const html = await converting;
  assert.equal(turned, true, 'the event loop ran while the text was converted');
  assert.equal(html, markdownToHtml(text, { css: 'h2 { color: red }' }));
  assert.equal(await convertMarkdown('# small'), markdownToHtml('# small'));
});
