// The address policy and the url check: every private, reserved and special range of the issue's
// list is refused in v4 and v6, alternate spellings normalise to what they are, and ALLOW_HOSTS /
// DENY_HOSTS open and close exactly what they name. No sockets: pure decisions.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressClass, createAddressPolicy, isPublicAddress, parseHostRule } from '../../../server/src/guard/address-policy.ts';
import { BlockedUrlError, checkDestination, checkUrl, UnresolvableHostError } from '../../../server/src/guard/url-check.ts';

const REFUSED: [string, string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'linkLocal'], // AWS, GCP, Azure, DigitalOcean, OpenStack metadata
  ['169.254.170.2', 'linkLocal'], // ECS task metadata
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.100.100.200', 'carrierGradeNat'], // Alibaba Cloud metadata
  ['168.63.129.16', 'metadata'], // Azure platform endpoint
  ['192.0.0.192', 'reserved'], // Oracle Cloud metadata
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['255.255.255.255', 'reserved'], // broadcast, inside 240.0.0.0/4
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.10', 'documentation'],
  ['198.51.100.10', 'documentation'],
  ['203.0.113.10', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['192.88.99.1', 'reserved'],
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'linkLocal'],
  ['fc00::1', 'uniqueLocal'],
  ['fd00:ec2::254', 'uniqueLocal'], // AWS IPv6 metadata
  ['fec0::1', 'deprecatedSiteLocal'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['2001::1', 'reserved'], // Teredo
  ['2001:2::1', 'reserved'], // benchmarking
  ['100::1', 'discard'],
  ['5f00::1', 'reserved'],
  ['64:ff9b:1::a00:1', 'rfc6052'], // local-use NAT64
  ['4000::1', 'reserved'], // outside 2000::/3
  ['::ffff:127.0.0.1', 'loopback'], // IPv4-mapped
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:169.254.169.254', 'linkLocal'],
  ['::127.0.0.1', 'loopback'], // IPv4-compatible
  ['::ffff:0:10.0.0.1', 'rfc6145'], // IPv4-translated
  ['64:ff9b::127.0.0.1', 'loopback (inside 64:ff9b::7f00:1)'], // NAT64 of loopback
  ['64:ff9b::a9fe:a9fe', 'linkLocal (inside 64:ff9b::a9fe:a9fe)'], // NAT64 of the metadata address
  ['2002:7f00:1::', 'loopback (inside 2002:7f00:1::)'], // 6to4 of loopback
  ['2002:c0a8:101::1', 'private (inside 2002:c0a8:101::1)'],
];

test('addressClass refuses every private, special and reserved range, v4 and v6, naming the class', () => {
  for (const [address, kind] of REFUSED) {
    assert.equal(addressClass(address), kind, address);
    assert.equal(isPublicAddress(address), false, address);
  }
});

test('public unicast addresses are allowed, including NAT64 and 6to4 of public ones', () => {
  for (const address of [
    '93.184.216.34',
    '1.1.1.1',
    '8.8.8.8',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '64:ff9b::5db8:d822',
    '2002:5db8:d822::1',
    '::ffff:93.184.216.34',
  ]) {
    assert.equal(addressClass(address), 'public', address);
  }
  assert.equal(addressClass('not an address'), 'invalid');
});

test('spellings of loopback are one address to the policy, in any form ipaddr.js parses', () => {
  for (const spelling of ['2130706433', '0x7f000001', '0177.0.0.1', '0x7f.0.0.1', '127.1', '127.0.1', '0:0:0:0:0:ffff:7f00:1', '::FFFF:127.0.0.1', '0000::1']) {
    assert.equal(isPublicAddress(spelling), false, spelling);
  }
});

test('the url check refuses alternate spellings that the URL parser turns into private addresses', async () => {
  const policy = createAddressPolicy([], []);
  const noDns = async (): Promise<string[]> => assert.fail('no name here needs DNS');
  for (const url of [
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://0x7f.1/',
    'http://127.0.0.1./',
    'http://LOCALHOST/',
    'http://localhost./',
    'http://foo.localhost/',
    'http://user:pass@127.0.0.1/',
    'http://example.com@127.0.0.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://0/',
    'http://0.0.0.0:8080/',
    'HTTP://127.0.0.1/',
  ]) {
    await assert.rejects(checkUrl(url, policy, noDns), BlockedUrlError, url);
  }
});

test('the url check refuses every scheme but http and https', async () => {
  const policy = createAddressPolicy([], []);
  for (const url of [
    'file:///etc/passwd',
    'ftp://example.com/',
    'gopher://example.com/',
    'chrome://version',
    'javascript:alert(1)',
    'data:text/html,x',
    'ws://example.com/',
    'blob:http://example.com/x',
    'view-source:http://example.com/',
    'not a url',
  ]) {
    await assert.rejects(
      checkUrl(url, policy, async () => ['93.184.216.34']),
      BlockedUrlError,
      url,
    );
  }
});

test('a name is refused when any address it resolves to is refused', async () => {
  const policy = createAddressPolicy([], []);
  await assert.rejects(
    checkDestination('mixed.test', 80, policy, async () => ['93.184.216.34', '10.0.0.1']),
    /10\.0\.0\.1 \(private\)/,
  );
  await assert.rejects(
    checkDestination('metadata.google.internal', 80, policy, async () => ['169.254.169.254']),
    /linkLocal/,
  );
  assert.deepEqual((await checkDestination('public.test', 80, policy, async () => ['93.184.216.34'])).addresses, ['93.184.216.34']);
});

test('names that cannot resolve never reach the resolver: .invalid, and anything not a DNS name', async () => {
  const policy = createAddressPolicy([], []);
  const resolver = async (): Promise<string[]> => assert.fail('must not be asked');
  for (const host of ['r1.render.invalid', 'a b', 'x%00y']) {
    await assert.rejects(checkDestination(host, 80, policy, resolver), UnresolvableHostError, host);
  }
});

test('ALLOW_HOSTS opens exactly what it names: a host, a host:port, a CIDR', () => {
  const policy = createAddressPolicy(['intranet.corp', '127.0.0.1:8080', '10.1.0.0/16', '[::1]:9000'], []);
  assert.ok(policy.allows({ host: 'intranet.corp', address: '10.9.9.9', port: 443 }));
  assert.ok(!policy.allows({ host: 'other.corp', address: '10.9.9.9', port: 443 }), 'another name for the same address');
  assert.ok(policy.allows({ host: '127.0.0.1', address: '127.0.0.1', port: 8080 }));
  assert.ok(!policy.allows({ host: '127.0.0.1', address: '127.0.0.1', port: 8081 }), 'another port');
  assert.ok(!policy.allows({ host: '127.0.0.2', address: '127.0.0.2', port: 8080 }), 'another loopback address on the port');
  assert.ok(policy.allows({ host: 'x', address: '::ffff:127.0.0.1', port: 8080 }), 'the mapped form of an allowed address');
  assert.ok(policy.allows({ host: 'db', address: '10.1.2.3', port: 5432 }));
  assert.ok(!policy.allows({ host: 'db', address: '10.2.0.1', port: 5432 }));
  assert.ok(policy.allows({ host: '::1', address: '::1', port: 9000 }));
  assert.ok(!policy.allows({ host: '::1', address: '::1', port: 9001 }));
  assert.equal(policy.decide({ host: 'db', address: '10.1.2.3', port: 1 }).reason, 'ALLOW_HOSTS 10.1.0.0/16');
});

test('DENY_HOSTS closes more, and wins over ALLOW_HOSTS', () => {
  const policy = createAddressPolicy(['10.0.0.0/8'], ['10.0.0.5', 'tracker.example', '93.184.216.0/24', 'public.example:8443']);
  assert.ok(!policy.allows({ host: 'x', address: '10.0.0.5', port: 80 }));
  assert.ok(policy.allows({ host: 'x', address: '10.0.0.6', port: 80 }));
  assert.ok(!policy.allows({ host: 'tracker.example', address: '1.1.1.1', port: 443 }));
  assert.ok(!policy.allows({ host: 'x', address: '93.184.216.34', port: 443 }));
  assert.ok(!policy.allows({ host: 'public.example', address: '1.1.1.1', port: 8443 }));
  assert.ok(policy.allows({ host: 'public.example', address: '1.1.1.1', port: 443 }));
  assert.match(policy.decide({ host: 'x', address: '10.0.0.5', port: 80 }).reason, /^DENY_HOSTS/);
});

test('host rules parse their spellings and refuse nonsense, naming the entry', () => {
  assert.deepEqual(parseHostRule('Intranet.Corp.:8080'), { text: 'Intranet.Corp.:8080', host: 'intranet.corp', port: 8080 });
  assert.equal(parseHostRule('[::1]:3000').port, 3000);
  assert.equal(parseHostRule('::1').cidr?.[1], 128);
  assert.equal(parseHostRule('::ffff:10.0.0.1').cidr?.[0].toString(), '10.0.0.1');
  assert.throws(() => parseHostRule('10.0.0.0/99'), /"10\.0\.0\.0\/99" is not a valid CIDR/);
  assert.throws(() => parseHostRule('host:70000'), /invalid port/);
  assert.throws(() => parseHostRule(':80'), /names no host/);
});
