// What the table of contents does inside the page (toc-pass.ts runs it): the default look, the
// insertion of the entries with a fixed-width number slot, and the filling of the numbers, which
// changes no box's size, so the page's layout (and every heading's page) stays as printed.

/**
 * The default look, every rule of zero specificity (:where) and placed first, so the page's own
 * CSS wins over each of them (docs/api.md#table-of-contents names the classes).
 */
export const TOC_CSS = `
:where(.quire-toc) { break-after: page; }
:where(.quire-toc-at-end) { break-before: page; break-after: auto; }
:where(.quire-toc-title) { font-size: 1.6em; font-weight: bold; margin: 0 0 0.8em; }
:where(.quire-toc-list) { list-style: none; margin: 0; padding: 0; }
:where(.quire-toc-entry) { margin: 0.3em 0; }
:where(.quire-toc-level-1) { font-weight: bold; }
:where(.quire-toc-level-2) { padding-left: 1.5em; }
:where(.quire-toc-level-3) { padding-left: 3em; }
:where(.quire-toc-level-4) { padding-left: 4.5em; }
:where(.quire-toc-level-5) { padding-left: 6em; }
:where(.quire-toc-level-6) { padding-left: 7.5em; }
:where(.quire-toc-link) { display: flex; align-items: baseline; color: inherit; text-decoration: none; }
:where(.quire-toc-text) { flex: 0 1 auto; }
:where(.quire-toc-leader) { flex: 1 0 1em; margin: 0 0.3em; border-bottom: 1px dotted currentColor; }
:where(.quire-toc-page) { flex: none; width: 3em; text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
:where(.quire-toc-page[data-quire-pending]) { visibility: hidden; }
`;

/** At most this many entries: a page with more headings lists the first ones. */
export const MAX_TOC_ENTRIES = 5000;

/**
 * Runs in the page with {title, depth, position, css, max}: finds the headings (h1 to h<depth>,
 * in document order, outside the TOC, with text), gives each a link target (its own id when it is
 * a plain one, else an empty anchor inside it with a generated id: Chromium names the PDF
 * destination after it), and puts the list where a <quire-toc> element stands, or at the start or
 * end of the body. Each number slot holds a hidden "0" of the final font until it is filled, so
 * filling it changes no line. Answers the destination names in order, or null when the page has
 * no body.
 */
export const INSERT_TOC = `(({ title, depth, position, css, max }) => {
  if (!document.body) return null;
  const holder = document.querySelector('quire-toc');
  if (holder) {
    if (holder.hasAttribute('title')) title = holder.getAttribute('title');
    const asked = Number(holder.getAttribute('depth'));
    if (Number.isInteger(asked) && asked >= 1 && asked <= 6) depth = asked;
  }
  const style = document.createElement('style');
  style.textContent = css;
  (document.head || document.documentElement).prepend(style);
  const nav = document.createElement('nav');
  nav.className = 'quire-toc';
  nav.setAttribute('data-quire-toc', '');
  if (title) {
    const line = document.createElement('p');
    line.className = 'quire-toc-title';
    line.textContent = title;
    nav.append(line);
  }
  const list = document.createElement('ol');
  list.className = 'quire-toc-list';
  nav.append(list);
  const taken = new Set(Array.from(document.querySelectorAll('[id]'), (element) => element.id));
  let next = 0;
  const fresh = () => { let id; do id = 'quire-toc-' + next++; while (taken.has(id)); taken.add(id); return id; };
  const names = [];
  const selector = Array.from({ length: depth }, (_, i) => 'h' + (i + 1)).join(',');
  for (const heading of document.body.querySelectorAll(selector)) {
    if (names.length >= max) break;
    const text = (heading.textContent || '').replace(/\\s+/g, ' ').trim();
    if (!text || heading.closest('[data-quire-toc], quire-toc')) continue;
    let name = heading.id;
    if (!/^[A-Za-z][A-Za-z0-9_.:-]*$/.test(name) || document.getElementById(name) !== heading) {
      const anchor = document.createElement('span');
      anchor.id = name = fresh();
      heading.prepend(anchor);
    }
    const entry = document.createElement('li');
    entry.className = 'quire-toc-entry quire-toc-level-' + heading.tagName.slice(1);
    const link = document.createElement('a');
    link.className = 'quire-toc-link';
    link.href = '#' + name;
    const label = document.createElement('span');
    label.className = 'quire-toc-text';
    label.textContent = text;
    const leader = document.createElement('span');
    leader.className = 'quire-toc-leader';
    const page = document.createElement('span');
    page.className = 'quire-toc-page';
    page.setAttribute('data-quire-pending', '');
    page.textContent = '0';
    link.append(label, leader, page);
    entry.append(link);
    list.append(entry);
    names.push(name);
  }
  if (holder) holder.replaceWith(nav);
  else if (position === 'end') { nav.classList.add('quire-toc-at-end'); document.body.append(nav); }
  else document.body.prepend(nav);
  return names;
})`;

/**
 * Runs in the page with the numbers, in entry order: each slot shows its number; an entry whose
 * heading was not printed (page_ranges left its page out: null) keeps its hidden slot and loses
 * its link, which would point nowhere. Answers how many slots it filled.
 */
export const FILL_TOC = `((numbers) => {
  const slots = document.querySelectorAll('[data-quire-toc] .quire-toc-page');
  let filled = 0;
  slots.forEach((slot, index) => {
    const number = numbers[index];
    if (number === null || number === undefined) { slot.closest('a')?.removeAttribute('href'); return; }
    slot.textContent = String(number);
    slot.removeAttribute('data-quire-pending');
    filled++;
  });
  return filled;
})`;
