import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateAdminToken, generateApiKey, hashSecret, isApiKeyForm, matchesHash } from '../../../server/src/accounts/keys.ts';
import { newId, randomBase62 } from '../../../server/src/ids.ts';

test('an API key is sk_live_ and 43 base62 characters (256 bits), different every time', () => {
  const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
  assert.equal(keys.size, 1000);
  for (const key of keys) {
    assert.match(key, /^sk_live_[0-9A-Za-z]{43}$/);
    assert.ok(isApiKeyForm(key));
  }
});

test('random base62 text uses the whole alphabet evenly', () => {
  const counts = new Map<string, number>();
  for (const char of randomBase62(62_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
  assert.equal(counts.size, 62);
  for (const [char, count] of counts) assert.ok(count > 700 && count < 1300, `${char} appeared ${count} times of ~1000`);
});

test('only the exact key form is taken for an API key', () => {
  const key = generateApiKey();
  for (const text of ['', 'sk_live_', `${key}x`, key.slice(0, -1), key.replace('sk_live_', 'sk_test_'), `${key.slice(0, -1)}-`, generateAdminToken()]) {
    assert.equal(isApiKeyForm(text), false, text);
  }
});

test('a secret is stored as its sha256 and compared by hash', () => {
  const key = generateApiKey();
  const hash = hashSecret(key);
  assert.match(hash, /^[0-9a-f]{64}$/);
  assert.ok(!hash.includes(key.slice(8, 20)));
  assert.ok(matchesHash(key, hash));
  assert.ok(!matchesHash(`${key}x`, hash));
  assert.ok(!matchesHash(key, 'not-a-hash'));
});

test('ids carry their prefix', () => {
  assert.match(newId('key'), /^key_[0-9A-Za-z]{16}$/);
});
