import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { ApiError } from '../../../server/src/errors.ts';
import { formatPath, parseInput } from '../../../server/src/http/validation.ts';
import { between } from '../../../server/src/bounds.ts';
import { renderRequestSchema } from '../../../server/src/http/schemas/render.ts';

/** The detail of the 400 that parseInput throws for this input. */
function detailOf(schema: z.ZodType, input: unknown, what?: string): string {
  try {
    parseInput(schema, input, what);
  } catch (error) {
    assert.ok(error instanceof ApiError, `threw ${String(error)}`);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_request');
    return error.detail;
  }
  assert.fail(`${JSON.stringify(input)} was accepted`);
}

const sample = z.strictObject({
  name: z.string().min(1).max(5),
  count: z.int().min(0, between(0, 10)).max(10, between(0, 10)),
  ratio: z
    .number()
    .min(
      0.1,
      between(0.1, 2, (n) => n.toFixed(1)),
    )
    .optional(),
  mode: z.enum(['fast', 'slow']).optional(),
  tags: z.array(z.string()).min(1).max(2).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  nested: z.strictObject({ deep: z.strictObject({ flag: z.boolean() }) }).optional(),
  items: z.array(z.strictObject({ size: z.number() })).optional(),
  code: z
    .string()
    .refine((value) => value.startsWith('x'), { message: 'must start with x' })
    .optional(),
});

const good = { name: 'abc', count: 3 };

test('formatPath joins keys with dots and indexes with brackets', () => {
  assert.equal(formatPath(['options', 'scale']), 'options.scale');
  assert.equal(formatPath(['requests', 3, 'options', 'scale']), 'requests[3].options.scale');
  assert.equal(formatPath([0, 'html']), '[0].html');
  assert.equal(formatPath(['matrix', 1, 2]), 'matrix[1][2]');
  assert.equal(formatPath([]), '');
});

test('parseInput returns the parsed value when the input is valid', () => {
  assert.deepEqual(parseInput(sample, good), good);
  assert.deepEqual(parseInput(z.object({ n: z.number().default(7) }), {}), { n: 7 });
});

test('a missing field is "required"', () => {
  assert.equal(detailOf(sample, { name: 'abc' }), 'count is required');
});

test('a field of the wrong type names the type wanted and the type sent', () => {
  assert.equal(detailOf(sample, { ...good, name: 42 }), 'name must be a string (got 42)');
  assert.equal(detailOf(sample, { ...good, name: true }), 'name must be a string (got boolean)');
  assert.equal(detailOf(sample, { ...good, name: null }), 'name must be a string (got null)');
  assert.equal(detailOf(sample, { ...good, name: ['a'] }), 'name must be a string (got array)');
  assert.equal(detailOf(sample, { ...good, name: {} }), 'name must be a string (got object)');
  assert.equal(detailOf(sample, { ...good, ratio: '1' }), 'ratio must be a number (got string)');
});

test('a fraction where a whole number is wanted says so, with the number sent', () => {
  assert.equal(detailOf(sample, { ...good, count: 1.5 }), 'count must be a whole number (got 1.5)');
});

test('an infinite number (JSON 1e400) is refused as not finite', () => {
  assert.equal(detailOf(sample, { ...good, ratio: Number.POSITIVE_INFINITY }), 'ratio must be a finite number (got Infinity)');
});

test('a record is called an object', () => {
  assert.equal(detailOf(sample, { ...good, data: [1] }), 'data must be an object (got array)');
  assert.equal(detailOf(sample, { ...good, data: 'x' }), 'data must be an object (got string)');
});

test('a body that is not an object is described as the request body', () => {
  assert.equal(detailOf(sample, [good]), 'request body must be an object (got array)');
  assert.equal(detailOf(sample, undefined), 'request body is missing');
  assert.equal(detailOf(sample, 'text', 'query string'), 'query string must be an object (got string)');
});

test('an unknown field is named with its path', () => {
  assert.equal(detailOf(sample, { ...good, colour: 'red' }), 'colour is not a known field');
  assert.equal(detailOf(sample, { ...good, nested: { deep: { flag: true, extra: 1 } } }), 'nested.deep.extra is not a known field');
});

test('an unknown camelCase field suggests its snake_case spelling', () => {
  assert.equal(detailOf(sample, { ...good, printBackground: false }), 'printBackground is not a known field (did you mean print_background?)');
});

test('a value outside an enum lists the allowed values', () => {
  assert.equal(detailOf(sample, { ...good, mode: 'medium' }), 'mode must be one of "fast", "slow"');
});

test('string and array lengths are described in words', () => {
  assert.equal(detailOf(sample, { ...good, name: '' }), 'name must not be empty');
  assert.equal(detailOf(sample, { ...good, name: 'toolong' }), 'name must be at most 5 characters');
  assert.equal(detailOf(sample, { ...good, tags: [] }), 'tags must have at least 1 entries');
  assert.equal(detailOf(sample, { ...good, tags: ['a', 'b', 'c'] }), 'tags must have at most 2 entries');
});

test('number bounds use the schema message naming the whole range', () => {
  assert.equal(detailOf(sample, { ...good, count: -1 }), 'count must be between 0 and 10');
  assert.equal(detailOf(sample, { ...good, count: 11 }), 'count must be between 0 and 10');
  assert.equal(detailOf(sample, { ...good, ratio: 0.05 }), 'ratio must be between 0.1 and 2.0');
});

test('nested and indexed fields are named by their full path', () => {
  assert.equal(detailOf(sample, { ...good, nested: { deep: { flag: 'yes' } } }), 'nested.deep.flag must be a boolean (got string)');
  assert.equal(detailOf(sample, { ...good, items: [{ size: 1 }, { size: 'big' }] }), 'items[1].size must be a number (got string)');
});

test('a refinement message follows the field name', () => {
  assert.equal(detailOf(sample, { ...good, code: 'y1' }), 'code must start with x');
});

test('only the first problem is reported, as one sentence', () => {
  const detail = detailOf(sample, { name: '', count: 'many', colour: 1 });
  assert.equal(detail, 'name must not be empty');
});

test('render request errors name the option path, as a caller reads it', () => {
  assert.equal(detailOf(renderRequestSchema, { html: 'x', options: { scale: 5 } }), 'options.scale must be between 0.1 and 2.0');
  assert.equal(detailOf(renderRequestSchema, { html: 'x', options: { timeout_ms: 10 } }), 'options.timeout_ms must be between 1000 and 60000');
  assert.equal(detailOf(renderRequestSchema, { html: 'x', options: { wait_ms: 9000 } }), 'options.wait_ms must be between 0 and 5000');
  assert.match(detailOf(renderRequestSchema, { html: 'x', options: { margin: '1em' } }), /^options\.margin must be a CSS length/);
  assert.match(detailOf(renderRequestSchema, { html: 'x', options: { page_ranges: '3-1' } }), /^options\.page_ranges must count pages from 1/);
  assert.equal(detailOf(renderRequestSchema, { html: 'x', filename: 'a/b.pdf' }), 'filename must not contain slashes or control characters');
  assert.equal(detailOf(renderRequestSchema, { template_id: 'nope' }), 'template_id must look like tpl_<id>');
});

test('render request margins that leave no room on the paper are refused at validation', () => {
  assert.equal(detailOf(renderRequestSchema, { html: 'x', options: { margin: '20in' } }), 'options.margin leaves no room for content on A4 paper');
  assert.equal(
    detailOf(renderRequestSchema, { html: 'x', options: { format: 'Letter', margin: '0 5in' } }),
    'options.margin leaves no room for content on Letter paper',
  );
  assert.ok(parseInput(renderRequestSchema, { html: 'x', options: { format: 'Letter', landscape: true, margin: '0 5in' } }));
  assert.ok(parseInput(renderRequestSchema, { html: 'x', options: { margin: '20in', prefer_css_page_size: true } }));
});

test('a render request with several bad options reports a field error, not a crash of the margin check', () => {
  assert.match(detailOf(renderRequestSchema, { html: 'x', options: { format: 'B5', margin: '20in' } }), /^options\.format must be one of/);
  assert.equal(detailOf(renderRequestSchema, { html: 'x', options: { margin: 20 } }), 'options.margin must be a string (got 20)');
});
