import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, expandTemplate, MAX_EXPAND_STEPS, TemplateLimitError, TemplateSyntaxError } from '../../../server/src/render/template.ts';

const LIMITS = { maxOutputLength: 5 * 1024 * 1024, maxSteps: MAX_EXPAND_STEPS };

function render(html: string, data: unknown, limits = LIMITS): string {
  return expandTemplate(compileTemplate(html), data, limits);
}

function syntaxErrorOf(html: string): TemplateSyntaxError {
  try {
    compileTemplate(html);
  } catch (error) {
    assert.ok(error instanceof TemplateSyntaxError, `threw ${String(error)}`);
    return error;
  }
  assert.fail(`${JSON.stringify(html)} parsed`);
}

test('{{path}} inserts the value HTML-escaped', () => {
  assert.equal(render('<p>{{name}}</p>', { name: `<b>"Tom" & 'Jerry'</b>` }), '<p>&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;</p>');
});

test('{{{path}}} inserts the value raw', () => {
  assert.equal(render('<p>{{{name}}}</p>', { name: '<b>bold</b> & more' }), '<p><b>bold</b> & more</p>');
});

test('dotted paths resolve into nested objects, and into lists by index', () => {
  const data = { customer: { address: { city: 'Lyon' } }, items: [{ sku: 'A1' }, { sku: 'B2' }] };
  assert.equal(render('{{customer.address.city}} {{items.1.sku}}', data), 'Lyon B2');
});

test('a path absent from data renders as an empty string, at any depth', () => {
  assert.equal(render('[{{missing}}][{{customer.missing.deeper}}][{{{raw.missing}}}]', { customer: {} }), '[][][]');
});

test('numbers and booleans print; null, objects and lists print nothing', () => {
  assert.equal(
    render('{{n}} {{f}} {{t}} {{zero}} [{{nil}}][{{obj}}][{{list}}]', { n: 12.5, f: false, t: true, zero: 0, nil: null, obj: { a: 1 }, list: [1, 2] }),
    '12.5 false true 0 [][][]',
  );
});

test('substitution is a single pass: an inserted value is never scanned for placeholders', () => {
  const data = { a: '{{b}}', b: 'SECRET', c: '{{{b}}}', d: '{{#list}}x{{/list}}', list: [1, 2] };
  assert.equal(render('{{a}}|{{{a}}}|{{{c}}}|{{{d}}}', data), '{{b}}|{{b}}|{{{b}}}|{{#list}}x{{/list}}');
});

test('spaces inside tags are allowed', () => {
  assert.equal(render('{{ a.b }} {{{ a.b }}} {{# list }}{{ . }}{{/ list }}', { a: { b: 'x' }, list: [1, 2] }), 'x x 12');
});

test('{{#list}} repeats for each item; names resolve in the item first, then outside it', () => {
  const html = '<table>{{#items}}<tr><td>{{description}}</td><td>{{qty}}</td><td>{{currency}} {{price}}</td></tr>{{/items}}</table>';
  const data = {
    currency: 'EUR',
    items: [
      { description: 'Paper', qty: 2, price: '3.00' },
      { description: 'Ink <black>', qty: 1, price: '9.50', currency: 'USD' },
    ],
  };
  assert.equal(
    render(html, data),
    '<table><tr><td>Paper</td><td>2</td><td>EUR 3.00</td></tr><tr><td>Ink &lt;black&gt;</td><td>1</td><td>USD 9.50</td></tr></table>',
  );
});

test('{{.}} is the current item of a list of scalars', () => {
  assert.equal(render('<ul>{{#tags}}<li>{{.}}</li>{{/tags}}</ul>', { tags: ['a', '<b>', 3] }), '<ul><li>a</li><li>&lt;b&gt;</li><li>3</li></ul>');
});

test('sections nest: lists in lists, each item reaching its parents', () => {
  const data = {
    orders: [
      { id: 1, lines: [{ sku: 'a' }, { sku: 'b' }] },
      { id: 2, lines: [] },
    ],
  };
  assert.equal(render('{{#orders}}[{{id}}:{{#lines}}{{id}}{{sku}},{{/lines}}{{^lines}}none{{/lines}}]{{/orders}}', data), '[1:1a,1b,][2:none]');
});

test('a section on a truthy value shows once (an object becomes the context); a falsy one hides it', () => {
  const html = '{{#paid}}PAID{{/paid}}{{#customer}}{{name}}{{/customer}}{{#note}}Note: {{note}}{{/note}}{{#none}}x{{/none}}';
  assert.equal(render(html, { paid: true, customer: { name: 'Ada' }, note: 'thanks' }), 'PAIDAdaNote: thanks');
  assert.equal(render(html, { paid: false, customer: null, note: '' }), '');
});

test('{{^path}} shows when the value is missing, false, 0, "" or an empty list, and not otherwise', () => {
  for (const value of [undefined, null, false, 0, '', []]) assert.equal(render('{{^v}}empty{{/v}}', { v: value }), 'empty', JSON.stringify(value));
  for (const value of [true, 1, 'x', [0], {}]) assert.equal(render('{{^v}}empty{{/v}}', { v: value }), '', JSON.stringify(value));
});

test('comments are dropped', () => {
  assert.equal(render('a{{! a note, with {braces} }}b', {}), 'ab');
});

test('text without placeholders, lone braces and a lone }} pass through untouched', () => {
  assert.equal(render('<style>p { color: red }</style> {x} }} {', {}), '<style>p { color: red }</style> {x} }} {');
});

test('__proto__, constructor and other inherited names resolve to nothing', () => {
  const html =
    '[{{__proto__}}][{{constructor}}][{{constructor.name}}][{{toString}}][{{a.hasOwnProperty}}][{{list.constructor.name}}][{{s.length}}][{{#constructor}}x{{/constructor}}][{{#__proto__}}y{{/__proto__}}]';
  assert.equal(render(html, { a: {}, list: [1], s: 'text' }), '[][][][][][][][][]');
});

test('hostile data from JSON cannot change Object.prototype or later renders', () => {
  const hostile = JSON.parse(
    '{"__proto__": {"polluted": "yes", "name": "EVIL"}, "constructor": {"prototype": {"polluted": "yes"}}, "a": {"__proto__": {"name": "EVIL"}}}',
  );
  const template = compileTemplate('[{{name}}][{{a.name}}][{{polluted}}][{{constructor.prototype.polluted}}]');
  // The caller's own keys are its own data: read, never followed to a prototype, never written.
  assert.equal(expandTemplate(template, hostile, LIMITS), '[][][][yes]');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(expandTemplate(template, { name: 'Ada', a: { name: 'Bob' } }, LIMITS), '[Ada][Bob][][]');
});

test('deeply nested data does not crash expansion', () => {
  let deep: Record<string, unknown> = { leaf: 'bottom' };
  for (let i = 0; i < 100_000; i++) deep = { child: deep };
  assert.equal(render('{{child.child.child}}|{{#child}}{{#child}}ok{{/child}}{{/child}}', deep), '|ok');
});

test('a huge list stops at the output ceiling instead of building a huge string', () => {
  const items = Array.from({ length: 1_000_000 }, (_, i) => ({ n: i }));
  assert.throws(
    () => render('{{#items}}<p>row {{n}} of many</p>{{/items}}', { items }, { maxOutputLength: 1_000_000, maxSteps: MAX_EXPAND_STEPS }),
    (error: unknown) => error instanceof TemplateLimitError && error.limit === 'output',
  );
});

test('nested loops over big lists that print nothing stop at the step budget', () => {
  const list = Array.from({ length: 10_000 }, () => 1);
  assert.throws(
    () => render('{{#list}}{{#list}}{{#list}}{{/list}}{{/list}}{{/list}}', { list }),
    (error: unknown) => error instanceof TemplateLimitError && error.limit === 'steps',
  );
});

test('the step budget keeps one tenant’s expansion off the shared event loop: ~50 ms at worst (MAX_EXPAND_STEPS)', () => {
  assert.equal(MAX_EXPAND_STEPS, 1_000_000, 'the documented budget');
  const list = Array.from({ length: 1200 }, () => 1);
  // About 1.4 million steps of nested loops: allowed under the old 5 million budget (~250 ms of one thread).
  assert.throws(
    () => render('{{#list}}{{#list}}{{x}}{{/list}}{{/list}}', { list }),
    (error: unknown) => error instanceof TemplateLimitError && error.limit === 'steps',
  );
});

test('an expansion within the limits is not cut short', () => {
  const items = Array.from({ length: 10_000 }, (_, i) => ({ n: i }));
  const out = render('{{#items}}{{n}},{{/items}}', { items });
  assert.equal(out.split(',').length, 10_001);
});

test('syntax errors name the line and column of the offending tag', () => {
  const cases: [string, number, number, RegExp][] = [
    ['<p>\n  {{name</p>', 2, 3, /never closed with }}/],
    ['<p>{{{raw}}</p>', 1, 4, /never closed with }}}/],
    ['<ul>\n{{#items}}\n<li>{{.}}</li>\n</ul>', 2, 1, /\{\{#items\}\} is never closed with \{\{\/items\}\}/],
    ['{{#a}}\n{{#b}}x{{/a}}\n{{/b}}', 2, 8, /\{\{\/a\}\} does not match \{\{#b\}\} opened at line 2, column 1/],
    ['ok\n\n   {{/items}}', 3, 4, /closes a section that was never opened/],
    ['{{first name}}', 1, 1, /not a valid placeholder/],
    ['x {{}}', 1, 3, /needs a name/],
    ['{{a..b}}', 1, 1, /not a valid placeholder/],
    ['{{> header}}', 1, 1, /partials/],
    ['{{=<% %>=}}', 1, 1, /delimiters/],
    ['{{& raw}}', 1, 1, /\{\{\{name\}\}\}/],
  ];
  for (const [html, line, column, reason] of cases) {
    const error = syntaxErrorOf(html);
    assert.deepEqual([error.line, error.column], [line, column], html);
    assert.match(error.reason, reason, html);
  }
});

test('sections nested more than 32 deep are a syntax error, 32 are fine', () => {
  const nest = (depth: number) => `${'{{#a}}'.repeat(depth)}x${'{{/a}}'.repeat(depth)}`;
  assert.equal(render(nest(32), { a: true }), 'x');
  assert.match(syntaxErrorOf(nest(33)).reason, /nested more than 32 deep/);
});
