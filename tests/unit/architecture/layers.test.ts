// The layers of docs/architecture.md hold: no module imports a layer above its own.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { importsOf, upwardImports } from '../../../scripts/check-layers.ts';

test('server/src imports only its own layer or lower ones, and every layer is in the table', () => {
  const { upward, unknown } = upwardImports();
  assert.deepEqual(
    upward.map((edge) => `${edge.file} -> ${edge.imports}`),
    [],
  );
  assert.deepEqual(unknown, []);
});

test('an import from a lower layer to a higher one is found, type-only and re-exports included', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'quire-layers-'));
  try {
    for (const folder of ['pdf', 'render', 'services']) mkdirSync(path.join(root, folder));
    writeFileSync(path.join(root, 'render', 'a.ts'), "import type { B } from '../services/b.ts';\nexport { C } from '../pdf/c.ts';\n");
    writeFileSync(path.join(root, 'pdf', 'c.ts'), "export { x } from '../render/a.ts';\n");
    writeFileSync(path.join(root, 'services', 'b.ts'), "import { a } from '../render/a.ts';\nconst lazy = () => import('../pdf/c.ts');\n");
    const { upward, unknown } = upwardImports(root);
    assert.deepEqual(upward.map((edge) => `${edge.file} -> ${edge.imports}`).sort(), ['pdf/c.ts -> render/a.ts', 'render/a.ts -> services/b.ts']);
    assert.deepEqual(unknown, []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('importsOf reads multi-line imports and dynamic imports, not strings that look like them', () => {
  const source = "import {\n  a,\n  b,\n} from './x.ts';\nconst s = \"from './not-an-import.ts'\";\nawait import('../y.ts');\nimport z from 'zod';\n";
  assert.deepEqual(importsOf(source), ['./x.ts', '../y.ts']);
});
