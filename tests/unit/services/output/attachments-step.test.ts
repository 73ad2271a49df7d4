// The attachments step's refusals that need stored documents larger than a request body can
// carry: one file over 5 MB, and files over 10 MB together, are 413 before anything is charged.
// Documents is a fake that answers sizes; nothing is rendered.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { ApiError } from '../../../../server/src/errors.ts';
import { AttachmentsStep } from '../../../../server/src/services/output/attachments-step.ts';
import type { DocumentsService } from '../../../../server/src/services/accounts/documents.ts';
import type { StepContext } from '../../../../server/src/services/output/steps.ts';

const MB = 1024 * 1024;

function stepWith(sizes: Record<string, number>): AttachmentsStep {
  const documents = {
    open: async (_owner: string, id: string) => {
      const size = sizes[id];
      if (size === undefined) throw new ApiError('document_not_found', `Document ${id} was not found.`);
      return { document: { id, size }, file: { createReadStream: () => Readable.from([]), close: async () => {} } };
    },
  } as unknown as DocumentsService;
  return new AttachmentsStep({ documents });
}

const context = { account: { keyId: 'key_1' }, field: 'requests[2].options' } as unknown as StepContext;
const attach = (...ids: string[]) => ({ attachments: ids.map((id) => ({ filename: `${id}.pdf`, document_id: id, relationship: 'Unspecified' })) });

test('a stored document over 5 MB is 413 naming the entry', async () => {
  await assert.rejects(stepWith({ doc_big: 5 * MB + 1 }).check(attach('doc_big'), context), (error: ApiError) => {
    assert.equal(error.code, 'payload_too_large');
    assert.match(error.detail, /^requests\[2\]\.options\.attachments\[0\] is 5\.0 MB; an attachment may be at most 5 MB\.$/);
    return true;
  });
});

test('files over 10 MB together are 413', async () => {
  const step = stepWith({ doc_a: 4 * MB, doc_b: 4 * MB, doc_c: 4 * MB });
  await step.check(attach('doc_a', 'doc_b'), context);
  await assert.rejects(step.check(attach('doc_a', 'doc_b', 'doc_c'), context), (error: ApiError) => {
    assert.equal(error.code, 'payload_too_large');
    assert.match(error.detail, /attachments come to 12\.0 MB; a document's attachments may be at most 10 MB together/);
    return true;
  });
});

test('a missing stored document is 404 naming the field; no attachments is no work', async () => {
  const step = stepWith({});
  await assert.rejects(step.check(attach('doc_gone'), context), /requests\[2\]\.options\.attachments\[0\]\.document_id doc_gone/);
  assert.equal(step.wanted({}), false);
  assert.equal(step.wanted({ attachments: [] }), false);
  await step.check({}, context);
});
