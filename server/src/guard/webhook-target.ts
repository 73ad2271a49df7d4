// The network guard for webhooks (docs/api.md#network-guard applies to webhook_url): a target is
// checked when the batch is accepted and again at every delivery, and a delivery connects to
// exactly the address that was checked (a pinned lookup), never follows a redirect, and never
// lets DNS answer twice. What to send, when to retry and how to sign is the batch queue's.

import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy.ts';
import { BlockedUrlError, checkDestination, parseHttpUrl, portOf, systemResolver, UnresolvableHostError } from './url-check.ts';
import type { Resolver } from './dns-resolver.ts';

/** A webhook URL whose host was resolved and checked: connect to `address`, nothing else. */
export interface PinnedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export interface WebhookDelivery {
  status: number;
  /** The first bytes of the answer, for the delivery record. */
  body: string;
}

/** The receiver did not answer in full within the delivery's time limit. */
export class WebhookTimeoutError extends Error {
  override readonly name = 'WebhookTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`webhook_url did not answer within ${timeoutMs} ms`);
  }
}

/** Checks a webhook_url (http(s) only, every address allowed) and pins the address to connect to. Throws BlockedUrlError. */
export async function checkWebhookTarget(raw: string, policy: AddressPolicy, resolve: Resolver = systemResolver): Promise<PinnedTarget> {
  const url = parseHttpUrl(raw);
  // Credentials in the URL would be sent to whoever answers; refuse them rather than leak them.
  if (url.username || url.password) throw new BlockedUrlError('webhook_url must not carry user:password');
  const { addresses } = await checkDestination(url.hostname, portOf(url), policy, resolve);
  const address = addresses[0]!;
  return { url, address, family: address.includes(':') ? 6 : 4 };
}

/** A lookup for node's http(s) client that answers only the pinned address. */
export function pinnedLookup(target: PinnedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    if (all)
      (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
}

/**
 * Checks the target again (the policy or DNS may have changed since the batch was accepted),
 * then POSTs once to the pinned address. Redirects are answers like any other (3xx is not 2xx:
 * the caller retries or gives up); they are never followed. Throws BlockedUrlError when refused,
 * and the network error when the target cannot be reached.
 */
export async function deliverWebhook(
  raw: string,
  request: { body: string; headers: Record<string, string>; timeoutMs: number },
  policy: AddressPolicy,
  resolve: Resolver = systemResolver,
): Promise<WebhookDelivery> {
  let target: PinnedTarget;
  try {
    target = await checkWebhookTarget(raw, policy, resolve);
  } catch (error) {
    if (error instanceof UnresolvableHostError) throw new Error(`webhook_url ${error.message}`);
    throw error;
  }
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolveDelivery, reject) => {
    const req = client.request(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      lookup: pinnedLookup(target),
      // A fresh connection per delivery: no pooled socket to whatever the name meant last time.
      agent: false,
      timeout: request.timeoutMs,
    });
    // `timeout` above fires only after that long without a byte; this one caps the whole
    // exchange, so a receiver that trickles its answer cannot hold the delivery either.
    const deadline = setTimeout(() => req.destroy(new WebhookTimeoutError(request.timeoutMs)), request.timeoutMs);
    const settle = () => clearTimeout(deadline);
    req.on('timeout', () => req.destroy(new WebhookTimeoutError(request.timeoutMs)));
    req.on('error', (error) => {
      settle();
      reject(error);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < 4096) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => {
        settle();
        resolveDelivery({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, 4096) });
      });
      res.on('error', (error) => {
        settle();
        reject(error);
      });
      // Cut off mid-answer (by the deadline or the receiver): whichever reason came first wins.
      res.on('close', () => {
        settle();
        if (!res.complete) reject(new Error('webhook_url closed the connection before answering in full'));
      });
    });
    req.end(request.body);
  });
}
