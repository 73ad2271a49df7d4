// The default print stylesheet of a Markdown source (services/markdown/markdown.ts): readable type on paper,
// tables and code that do not split badly across pages, and highlight.js's token classes in
// GitHub's light colours. options.css extends it; options.css_mode "replace" leaves it out.
// Fonts are the ones the server installs (Liberation, docs/operations.md#chromium-and-fonts); DejaVu,
// which fontconfig falls back to for what Liberation lacks (arrows such as a footnote's ↩), is named
// so that fallback is the stylesheet's own choice and no receipt warns of it.

export const MARKDOWN_STYLESHEET = `
html { font-family: "Liberation Sans", Arial, Helvetica, "DejaVu Sans", sans-serif; font-size: 11pt; line-height: 1.5; color: #1f2328; }
body { margin: 0; }
.markdown-body { overflow-wrap: break-word; }
.markdown-body > :first-child { margin-top: 0; }
h1, h2, h3, h4, h5, h6 { margin: 1.4em 0 0.6em; font-weight: 600; line-height: 1.25; break-after: avoid; page-break-after: avoid; }
h1 { font-size: 2em; padding-bottom: 0.3em; border-bottom: 1px solid #d1d9e0; }
h2 { font-size: 1.5em; padding-bottom: 0.3em; border-bottom: 1px solid #d1d9e0; }
h3 { font-size: 1.25em; }
h4 { font-size: 1em; }
h5 { font-size: 0.875em; }
h6 { font-size: 0.85em; color: #59636e; }
p, ul, ol, dl, table, pre, blockquote, details { margin: 0 0 1em; }
ul, ol { padding-left: 2em; }
li + li { margin-top: 0.25em; }
li > p { margin: 0.5em 0; }
a { color: #0969da; text-decoration: none; }
strong { font-weight: 600; }
del { color: #59636e; }
hr { height: 0.25em; margin: 1.5em 0; padding: 0; border: 0; background: #d1d9e0; }
blockquote { margin-left: 0; padding: 0 1em; color: #59636e; border-left: 0.25em solid #d1d9e0; }
img { max-width: 100%; break-inside: avoid; }
table { border-collapse: collapse; display: table; width: auto; max-width: 100%; }
thead { display: table-header-group; }
tr { break-inside: avoid; page-break-inside: avoid; }
th, td { padding: 6px 13px; border: 1px solid #d1d9e0; }
th { font-weight: 600; background: #f6f8fa; }
tr:nth-child(2n) td { background: #f6f8fa; }
code, kbd, pre { font-family: "Liberation Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 0.85em; }
code { padding: 0.2em 0.4em; border-radius: 6px; background: #eff1f3; }
pre { padding: 1em; overflow: hidden; white-space: pre-wrap; overflow-wrap: anywhere; line-height: 1.45; border-radius: 6px; background: #f6f8fa; }
pre code { padding: 0; font-size: 1em; background: transparent; }
kbd { padding: 0.2em 0.4em; border: 1px solid #d1d9e0; border-radius: 6px; }
.task-list-item { list-style-type: none; }
.task-list-item input[type="checkbox"] { margin: 0 0.35em 0.2em -1.4em; vertical-align: middle; }
.footnotes { font-size: 0.85em; color: #59636e; }
.footnotes-sep { height: 1px; }
.hljs-doctag, .hljs-keyword, .hljs-meta .hljs-keyword, .hljs-template-tag, .hljs-template-variable, .hljs-type, .hljs-variable.language_ { color: #cf222e; }
.hljs-title, .hljs-title.class_, .hljs-title.class_.inherited__, .hljs-title.function_ { color: #8250df; }
.hljs-attr, .hljs-attribute, .hljs-literal, .hljs-meta, .hljs-number, .hljs-operator, .hljs-variable, .hljs-selector-attr, .hljs-selector-class, .hljs-selector-id { color: #0550ae; }
.hljs-regexp, .hljs-string, .hljs-meta .hljs-string { color: #0a3069; }
.hljs-built_in, .hljs-symbol { color: #953800; }
.hljs-comment, .hljs-code, .hljs-formula { color: #59636e; }
.hljs-name, .hljs-quote, .hljs-selector-tag, .hljs-selector-pseudo { color: #116329; }
.hljs-subst { color: #1f2328; }
.hljs-section { color: #0550ae; font-weight: bold; }
.hljs-bullet { color: #953800; }
.hljs-emphasis { font-style: italic; }
.hljs-strong { font-weight: bold; }
.hljs-addition { color: #116329; background-color: #dafbe1; }
.hljs-deletion { color: #82071e; background-color: #ffebe9; }
`.trim();
