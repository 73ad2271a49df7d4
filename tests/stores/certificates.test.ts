// Contract of the signing certificate store (stores/certificates.ts CertificateStore), against
// certificates.json and PostgreSQL (stores/pg/certificates.ts): insert, list in order, get,
// grants and re-sealed keys replaced, delete; the file survives a reopen and is mode 0600.

import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { newId } from '../../server/src/ids.ts';
import { FileCertificateStore, type CertificateRecord, type CertificateStore } from '../../server/src/stores/certificates.ts';
import { PgCertificateStore } from '../../server/src/stores/pg/certificates.ts';
import { forEachBackend, type Backend } from './backends.ts';

function record(createdAt: string, ownerKeyId: string | null): CertificateRecord {
  return {
    id: newId('crt'),
    name: 'Alice',
    ownerKeyId,
    grants: [],
    subject: 'CN=Alice',
    issuer: 'CN=CA',
    serial: '0A',
    notBefore: '2026-01-01T00:00:00.000Z',
    notAfter: '2027-01-01T00:00:00.000Z',
    fingerprint: 'ab'.repeat(32),
    chain: ['AAAA'],
    keyType: 'rsa',
    sealedKey: 'v1.0123456789abcdef.c2VhbGVk',
    createdAt,
  };
}

forEachBackend((backend: Backend) => {
  const open = async (dataDir: string): Promise<CertificateStore> =>
    backend.kind === 'files' ? FileCertificateStore.open(dataDir) : new PgCertificateStore(backend.database().pool);

  test('insert, list oldest first, get, update grants and sealed key, delete', async () => {
    const dataDir = await backend.dataDir();
    const store = await open(dataDir);
    const key = newId('key');
    const first = record('2026-02-01T00:00:00.000Z', key);
    const second = record('2026-02-02T00:00:00.000Z', null);
    await store.insert(second);
    await store.insert(first);
    const mine = (await store.list()).filter((item) => item.id === first.id || item.id === second.id);
    assert.deepEqual(
      mine.map((item) => item.id),
      [first.id, second.id],
    );
    assert.deepEqual(await store.get(first.id), first);
    assert.equal(await store.get(newId('crt')), undefined);
    const granted = await store.update(second.id, { grants: [key] });
    assert.deepEqual(granted?.grants, [key]);
    const resealed = await store.update(second.id, { sealedKey: 'v1.fedcba9876543210.bmV3' });
    assert.equal(resealed?.sealedKey, 'v1.fedcba9876543210.bmV3');
    assert.deepEqual(resealed?.grants, [key], 'an update changes only what it names');
    assert.equal(await store.update(newId('crt'), { grants: [] }), undefined);
    assert.equal(await store.delete(first.id), true);
    assert.equal(await store.delete(first.id), false);
    assert.equal(await store.get(first.id), undefined);
    const again = await open(dataDir);
    assert.deepEqual((await again.get(second.id))?.grants, [key], 'kept across a reopen');
    assert.equal(await again.get(first.id), undefined);
    if (backend.kind === 'files') assert.equal((await stat(path.join(dataDir, 'certificates.json'))).mode & 0o777, 0o600);
  });
});
