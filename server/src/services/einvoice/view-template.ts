// Quire's default view of an e-invoice (docs/examples/einvoice-view-template.html): every business
// term the invoice carries, grouped and labelled with its BT number, and the rule report last. Read
// and parsed once from the package; a key replaces it with a template of its own (template_id).

import { readFileSync } from 'node:fs';
import { fromPackageRoot } from '../../package-root.ts';
import type { CompiledTemplate } from '../../render/template.ts';
import { expandTemplateText, parseTemplateText } from '../templates/expansion.ts';

/** Where the default view is: beside the documentation's other examples, so a user can copy it as a start. */
export const DEFAULT_VIEW_PATH = fromPackageRoot('docs', 'examples', 'einvoice-view-template.html');

let compiled: CompiledTemplate | undefined;

/** The default view expanded with a view's data (read.ts viewData), as HTML to render. */
export function expandDefaultView(data: Record<string, unknown>): string {
  compiled ??= parseTemplateText(readFileSync(DEFAULT_VIEW_PATH, 'utf8'));
  return expandTemplateText(compiled, data, 'html');
}
