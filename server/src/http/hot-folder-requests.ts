// What the hot folder (queue/hot-folder.ts) takes, as the API would: a request file or a page
// parsed like a POST /v1/pdf body, an office file converted with the default office options, and
// a name.pdf put through the transform of WATCH_DIR/settings.json's "pdf" entry (validated with
// POST /v1/pdf/transform's step and option schemas) by TransformService.one. The queue stays
// generic; the schemas and the services meet here, as they do in a route.

import { z } from 'zod';
import { OFFICE_KINDS, officeKindOf } from '../office/file-kinds.ts';
import type { HotFolderDeps } from '../queue/hot-folder.ts';
import type { Account } from '../services/accounts/keys.ts';
import { PDF_INPUT_LIMITS } from '../services/pdf-tools/pdf-input.ts';
import type { RenderService } from '../services/render/render.ts';
import type { RenderInput } from '../services/render/request.ts';
import type { TransformInput, TransformService } from '../services/pdf-tools/transform.ts';
import { isOfficeRequest, officeRenderRequestSchema } from './schemas/office.ts';
import { renderRequestSchema } from './schemas/render.ts';
import { hotFolderPdfSchema } from './schemas/transform.ts';
import { parseInput } from './validation.ts';

/** A dropped file's work: a render (html, url, markdown, template, office) or a PDF's transform. */
export type HotFolderRequest = { render: RenderInput } | { transform: TransformInput };

/** settings.json beyond its key_id; other entries are left to the hot folder (key_id) or ignored. */
export interface HotFolderSettings {
  pdf?: z.output<typeof hotFolderPdfSchema>;
}

const settingsSchema = z.object({ pdf: hotFolderPdfSchema.optional() });
const PDF_NAME = /\.pdf$/i;

type Wired = 'render' | 'parseRequest' | 'parseSettings' | 'requestForFile' | 'maxBytesOf' | 'acceptedKinds';

/** The hot folder's requests, settings and work, over the render and transform services. */
export function hotFolderRequests(services: {
  render: Pick<RenderService, 'render'>;
  transforms: Pick<TransformService, 'one'>;
}): Pick<HotFolderDeps<HotFolderRequest, Account, HotFolderSettings>, Wired> {
  const parseRequest = (json: unknown): HotFolderRequest => ({
    render: isOfficeRequest(json) ? parseInput(officeRenderRequestSchema, json, 'the request file') : parseInput(renderRequestSchema, json, 'the request file'),
  });
  return {
    // Background priority keeps interactive renders ahead; a transform runs on the PDF workers.
    render: (request, account) =>
      'transform' in request
        ? services.transforms.one(request.transform, account)
        : services.render.render(request.render, account, { priority: 'background' }),
    parseRequest,
    parseSettings: (settings) => parseInput(settingsSchema, settings, 'settings.json'),
    requestForFile: (name, bytes, settings) => {
      if (officeKindOf(name)) return parseRequest({ office: { file: Buffer.from(bytes).toString('base64'), filename: name } });
      // Without a pdf entry a PDF is refused as any file of a kind not taken (acceptedKinds says how to take it).
      if (!PDF_NAME.test(name) || !settings?.pdf) return undefined;
      return { transform: { ...settings.pdf, pdf: bytes, filename: name } };
    },
    maxBytesOf: (name, settings) => (PDF_NAME.test(name) && settings?.pdf ? PDF_INPUT_LIMITS.bytes : undefined),
    acceptedKinds:
      `name.json (a render request), name.html, name.md, an office file (${OFFICE_KINDS.map((kind) => `.${kind}`).join(', ')}) ` +
      'or name.pdf once settings.json has a "pdf" entry ({"pdf": {"steps": [...]}} or {"pdf": {"preset_id": "pre_..."}})',
  };
}
