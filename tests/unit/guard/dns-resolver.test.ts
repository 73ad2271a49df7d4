// The guard's resolver (issue 11): c-ares against a name server, never dns.lookup on libuv's
// thread pool; a query that gets no answer ends within the time limit; answers are reused for
// their TTL. The name server is a few lines of UDP on loopback.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import dns from 'node:dns';
import type { AddressInfo } from 'node:net';
import { createDnsResolver, DnsTimeoutError } from '../../../server/src/guard/dns-resolver.ts';

interface FakeNameServer {
  server: string;
  /** Questions received, as "name type". */
  questions: string[];
  close(): Promise<void>;
}

/** Answers A questions with `addresses` (TTL `ttl`), AAAA with nothing; or, when silent, never answers. */
async function startNameServer(addresses: string[], ttl: number, silent = false): Promise<FakeNameServer> {
  const socket = dgram.createSocket('udp4');
  const questions: string[] = [];
  socket.on('message', (query, peer) => {
    const { name, type, end } = readQuestion(query);
    questions.push(`${name} ${type === 1 ? 'A' : type === 28 ? 'AAAA' : type}`);
    if (silent) return;
    const answers = type === 1 ? addresses : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(0x8180, 2); // response, recursion desired and available, NOERROR
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    const records = answers.map((address) => {
      const record = Buffer.alloc(16);
      record.writeUInt16BE(0xc00c, 0); // pointer to the question's name
      record.writeUInt16BE(1, 2);
      record.writeUInt16BE(1, 4);
      record.writeUInt32BE(ttl, 6);
      record.writeUInt16BE(4, 10);
      for (const [i, part] of address.split('.').entries()) record.writeUInt8(Number(part), 12 + i);
      return record;
    });
    socket.send(Buffer.concat([header, query.subarray(12, end), ...records]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return {
    server: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    questions,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

function readQuestion(query: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let at = 12;
  while (query[at]! > 0) {
    labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString('ascii'));
    at += query[at]! + 1;
  }
  return { name: labels.join('.'), type: query.readUInt16BE(at + 1), end: at + 5 };
}

test('names resolve through c-ares, and an answer is reused for its TTL', async (t) => {
  const ns = await startNameServer(['93.184.215.14'], 30);
  t.after(() => ns.close());
  let clock = 0;
  const resolve = createDnsResolver({ timeoutMs: 2000, servers: [ns.server], now: () => clock });
  assert.deepEqual(await resolve('shop.example'), ['93.184.215.14']);
  assert.deepEqual(await resolve('shop.example'), ['93.184.215.14']);
  assert.equal(ns.questions.filter((q) => q === 'shop.example A').length, 1, 'the second answer came from the cache');
  clock += 31_000;
  await resolve('shop.example');
  assert.equal(ns.questions.filter((q) => q === 'shop.example A').length, 2, 'asked again once the TTL ran out');
});

test('concurrent questions for one name share one query', async (t) => {
  const ns = await startNameServer(['93.184.215.14'], 0);
  t.after(() => ns.close());
  const resolve = createDnsResolver({ timeoutMs: 2000, servers: [ns.server] });
  await Promise.all(Array.from({ length: 5 }, () => resolve('many.example')));
  assert.equal(ns.questions.filter((q) => q === 'many.example A').length, 1);
});

test('a name server that never answers ends in DnsTimeoutError, not a hang', async (t) => {
  const ns = await startNameServer([], 0, true);
  t.after(() => ns.close());
  const resolve = createDnsResolver({ timeoutMs: 300, servers: [ns.server] });
  await assert.rejects(resolve('slow.example'), (error: unknown) => error instanceof DnsTimeoutError || /ETIMEOUT/.test(String(error)));
});

test('the guard never resolves with dns.lookup (libuv thread pool)', async (t) => {
  const ns = await startNameServer(['93.184.215.14'], 0);
  t.after(() => ns.close());
  const original = dns.lookup;
  let lookups = 0;
  (dns as { lookup: unknown }).lookup = (...args: unknown[]) => {
    lookups++;
    return (original as (...a: unknown[]) => unknown)(...args);
  };
  t.after(() => {
    (dns as { lookup: unknown }).lookup = original;
  });
  const resolve = createDnsResolver({ timeoutMs: 2000, servers: [ns.server] });
  await resolve('pool.example');
  assert.equal(lookups, 0);
});
