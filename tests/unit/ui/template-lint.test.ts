// The template studio's lint (ui/src/lib/template-lint.ts): which placeholders the sample data has
// no value for, with sections scoping names as a render does (issue #30 item 4: a top-level
// placeholder after a closed section was flagged).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { templateProblems } from '../../../ui/src/lib/template-lint.ts';

const INVOICE = { customer: { name: 'Ada' }, items: [{ name: 'Pen', price: 2.5 }], total: 137.9 };

function flagged(html: string, sample: Record<string, unknown> = INVOICE): string[] {
  return templateProblems(html, sample).map((problem) => html.slice(problem.from, problem.to));
}

test('a top-level placeholder after a closed section is found in the sample data', () => {
  assert.deepEqual(flagged('{{#items}}<td>{{name}}</td>{{/items}}<p>{{total}}</p>'), []);
  assert.deepEqual(flagged('{{#items}}{{name}}{{/items}}{{#items}}{{price}}{{/items}}{{customer.name}} {{total}}'), []);
});

test('nested sections close back to the scope around them', () => {
  const sample = { groups: [{ title: 'A', rows: [{ cell: 1 }] }], footer: 'end' };
  assert.deepEqual(flagged('{{#groups}}{{#rows}}{{cell}}{{/rows}}{{title}}{{/groups}}{{footer}}', sample), []);
  assert.deepEqual(flagged('{{#groups}}{{#rows}}{{/rows}}{{cell}}{{/groups}}', sample), ['{{cell}}'], 'cell belongs to rows only');
});

test('what the sample data lacks is still flagged, inside and after sections', () => {
  assert.deepEqual(flagged('{{#items}}{{colour}}{{/items}}{{tax}}'), ['{{colour}}', '{{tax}}']);
  assert.deepEqual(flagged('{{^discount}}none{{/discount}}{{total}}'), [], 'an inverted section is written for the value being missing');
});
