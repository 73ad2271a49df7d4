// Markdown to the HTML document a render loads (docs/api.md#markdown): GitHub-flavoured Markdown
// (tables, task lists, strikethrough, autolinks, footnotes) by markdown-it and its plugins, fenced
// code highlighted by highlight.js, headings given ids (so options.outline has h1-h6 to make
// bookmarks of), raw HTML passed through as it is (it then meets the same network guard and 5 MB
// ceiling as an html source), all inside the default print stylesheet or the caller's CSS. Pure:
// no I/O, no Chromium; the render path is the html source's (services/render/render.ts).

/// <reference path="./plugins.d.ts" />

import hljs from 'highlight.js/lib/common';
import MarkdownIt from 'markdown-it';
import anchor from 'markdown-it-anchor';
import footnote from 'markdown-it-footnote';
import taskLists from 'markdown-it-task-lists';
import type { MarkdownStyle } from '../../render/markdown-style-options.ts';
import { MARKDOWN_STYLESHEET } from './style.ts';

const markdown = new MarkdownIt({
  // Raw HTML as in an html source: the page's requests still go through the egress proxy.
  html: true,
  // GFM's autolinks (www.example.com, https://..., bare addresses), the way GitHub shows them.
  linkify: true,
  typographer: false,
  highlight: highlightCode,
})
  .use(footnote)
  .use(taskLists, { enabled: false, label: true })
  // Ids as GitHub makes them ("API at a glance" -> "api-at-a-glance"), no permalink symbols in print.
  .use(anchor, { slugify: slugOf, tabIndex: false });

/** What the document around a Markdown text says of it besides its style: its language and the file's name. */
export interface MarkdownPage {
  /** options.lang (BCP 47, checked by the route); default "en". */
  lang?: string;
  /** The request's filename, the title's last fallback. */
  filename?: string;
}

/**
 * A complete HTML document for a Markdown text: the article, its language (options.lang, else
 * "en") and its title (the front matter's title, else the first heading, else the file name), so
 * options.metadata's default title and the PDF viewer's window show it and a pdf_ua render passes
 * without extra options (issue 42), and its stylesheet.
 */
export function markdownToHtml(text: string, style: MarkdownStyle & MarkdownPage = {}): string {
  const { title: frontTitle, rest } = splitFrontMatter(text);
  const env = {};
  const tokens = markdown.parse(rest, env);
  const body = markdown.renderer.render(tokens, markdown.options, env);
  const heading = tokens.findIndex((token) => token.type === 'heading_open');
  const firstHeading = heading === -1 ? '' : (tokens[heading + 1]?.children ?? []).map((child) => child.content).join('');
  const title = frontTitle || firstHeading || (style.filename ?? '').replace(/\.[A-Za-z0-9]+$/, '');
  const sheets = [style.css_mode === 'replace' ? '' : MARKDOWN_STYLESHEET, style.css ?? ''].filter((sheet) => sheet !== '');
  return [
    '<!doctype html>',
    `<html lang="${markdown.utils.escapeHtml(style.lang || 'en')}"><head><meta charset="utf-8">`,
    title === '' ? '' : `<title>${markdown.utils.escapeHtml(title)}</title>`,
    // A </style> inside the caller's CSS would end the element early: broken up so it cannot.
    ...sheets.map((sheet) => `<style>\n${sheet.replace(/<\/style/gi, '<\\/style')}\n</style>`),
    '</head><body><article class="markdown-body">',
    body,
    '</article></body></html>',
  ].join('\n');
}

/**
 * A leading YAML front matter block ("---" lines around "key: value" lines), as static site
 * generators write it: its title is read and the block is left out of the page (without this it
 * printed as a rule and a heading). Anything else at the top is Markdown and kept.
 */
function splitFrontMatter(text: string): { title: string; rest: string } {
  const block = /^---\r?\n((?:[A-Za-z_][\w-]*:.*\r?\n|[ \t#-].*\r?\n|\r?\n)*?)---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!block) return { title: '', rest: text };
  const line = /^title:[ \t]*(.*)$/m.exec(block[1] ?? '');
  const title = (line?.[1] ?? '').trim().replace(/^(["'])(.*)\1$/, '$2');
  return { title, rest: text.slice(block[0].length) };
}

/**
 * A {{value}} of a Markdown template: escaped for HTML as in an HTML template, and Markdown's
 * punctuation and line breaks turned into character references too, so a value is always literal
 * text on its line (never emphasis, a link, a table cell break or a new block). Inside code spans
 * and fenced code, Markdown shows references as written: {{{value}}} inserts a value as it is.
 */
export function escapeMarkdownText(text: string): string {
  return MARKDOWN_SPECIAL.test(text) ? text.replace(MARKDOWN_SPECIAL_ALL, (char) => `&#${char.charCodeAt(0)};`) : text;
}

// HTML's five, Markdown's punctuation (emphasis, code, links, headings, lists, tables, strikethrough,
// autolinks, footnotes) and line breaks.
const MARKDOWN_SPECIAL = /[&<>"'\\`*_{}[\]()#+\-.!|~:=$^\n\r]/;
const MARKDOWN_SPECIAL_ALL = new RegExp(MARKDOWN_SPECIAL.source, 'g');

/** Fenced code with a language highlight.js knows; other code is escaped as it is (no guessing: auto-detection is slow and often wrong). */
function highlightCode(code: string, language: string): string {
  const name = language.trim().toLowerCase();
  if (name === '' || !hljs.getLanguage(name)) return '';
  return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
}

/** GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens (markdown-it-anchor numbers repeats). */
function slugOf(text: string): string {
  return encodeURIComponent(
    text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-'),
  );
}
