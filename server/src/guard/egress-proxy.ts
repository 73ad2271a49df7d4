// The network guard's egress proxy: Chromium is launched with --proxy-server pointing here and
// sends every request it makes (documents, sub-resources, frames, redirects, fetch/XHR,
// WebSockets, workers, prefetches) through it. The proxy resolves the host itself, checks every
// address with the AddressPolicy and connects to exactly the address it checked.
//
// Why a proxy and not request interception in Chromium: with a proxy Chromium never resolves or
// connects to a page's hosts itself, so there is no window between the DNS answer we checked and
// the connection made (DNS rebinding), and it covers what CDP interception sees late or not at
// all (service workers, WebSocket handshakes, CONNECT tunnels, prefetches, beacons) at the cost
// of one loopback hop instead of a CDP round trip per request. It holds no cookies, no cache and
// no pooled upstream connections, so it shares nothing between renders.
// What it does not own: which addresses are allowed (address-policy.ts), Chromium's flags
// (render/launch-flags.ts).

import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../logger.ts';
import { addressClass, type AddressPolicy } from './address-policy.ts';
import { BlockedUrlError, UnresolvableHostError, checkDestination, portOf, systemResolver } from './url-check.ts';
import type { Resolver } from './dns-resolver.ts';

export interface EgressProxyOptions {
  policy: AddressPolicy;
  resolve?: Resolver;
  log: Logger;
  /** Longest wait for an upstream TCP connection (default 10 s). */
  connectTimeoutMs?: number;
  /** Counts decisions (metrics). */
  onDecision?: (outcome: EgressOutcome) => void;
}

export type EgressOutcome = 'allowed' | 'blocked' | 'failed';

export interface EgressProxy {
  /** The proxy's address for --proxy-server, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  readonly port: number;
  /**
   * Why the proxy last refused host:port, if it did lately (the last 512 refusals): a render's
   * receipt names the reason beside each blocked request. The page only sees a bare 403.
   */
  refusalFor(host: string, port: number): string | undefined;
  /** Stops listening and cuts every open connection and tunnel. */
  close(): Promise<void>;
}

/** Marks the proxy's own refusals (403) and failures (502) so they can be told from a server's. */
export const GUARD_HEADER = 'x-quire-guard';

// RFC 9110 hop-by-hop headers, plus the proxy's own: never forwarded in either direction.
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

type Refusal = { status: 403 | 502; reason: string };

const REMEMBERED_REFUSALS = 512;

/** Starts the proxy on 127.0.0.1 (a free port); resolves once it listens. */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const { policy, log } = options;
  const resolve = options.resolve ?? systemResolver;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const sockets = new Set<net.Socket | Duplex>();
  let ownPort = 0;
  const refusals = new Map<string, string>();
  const remember = (host: string, port: number, reason: string) => {
    const key = `${host.toLowerCase()}:${port}`;
    refusals.delete(key);
    refusals.set(key, reason);
    if (refusals.size > REMEMBERED_REFUSALS) refusals.delete(refusals.keys().next().value!);
  };

  const track = <T extends net.Socket | Duplex>(socket: T): T => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    return socket;
  };

  /** Resolves and checks; on refusal logs it and returns the status to answer with. */
  const admit = async (host: string, port: number, via: string): Promise<string[] | Refusal> => {
    try {
      const { addresses } = await checkDestination(host, port, policy, resolve);
      // Never a tunnel into the proxy itself, even when ALLOW_HOSTS opens all of loopback.
      if (port === ownPort && addresses.some(isLocalAddress)) throw new BlockedUrlError(`${host}:${port} is the egress proxy itself`);
      options.onDecision?.('allowed');
      log.debug({ host, port, via, address: addresses[0] }, 'egress allowed');
      return addresses;
    } catch (error) {
      if (error instanceof BlockedUrlError) {
        options.onDecision?.('blocked');
        log.warn({ host, port, via, reason: error.reason }, 'egress blocked');
        remember(host, port, error.reason);
        return { status: 403, reason: error.reason };
      }
      options.onDecision?.('failed');
      const reason = error instanceof UnresolvableHostError ? error.message : String((error as Error)?.message ?? error);
      log.debug({ host, port, via, reason }, 'egress failed');
      return { status: 502, reason };
    }
  };

  /** Connects to the checked addresses in order; the first that answers wins. */
  const connectToChecked = async (addresses: string[], port: number): Promise<net.Socket> => {
    let lastError: Error | undefined;
    for (const address of addresses) {
      try {
        return track(await connectOnce(address, port, connectTimeoutMs));
      } catch (error) {
        lastError = error as Error;
      }
    }
    throw lastError ?? new Error('no address to connect to');
  };

  const forwardHttp = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const target = absoluteTarget(req.url, ['http:']);
    if (!target) return void refuseResponse(res, { status: 403, reason: 'not an absolute http:// proxy request' });
    const admitted = await admit(target.hostname, portOf(target), 'http');
    if (!Array.isArray(admitted)) return void refuseResponse(res, admitted);
    if (res.destroyed) return;
    let socket: net.Socket;
    try {
      socket = await connectToChecked(admitted, portOf(target));
    } catch (error) {
      return void refuseResponse(res, { status: 502, reason: (error as Error).message });
    }
    if (res.destroyed) return void socket.destroy();
    const upstream = http.request({
      // No agent: this one checked socket carries this one request (nothing pooled across renders).
      createConnection: () => socket,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: forwardedHeaders(req.rawHeaders),
      setHost: false,
    });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedHeaders(answer.rawHeaders));
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) refuseResponse(res, { status: 502, reason: error.message });
      else res.destroy();
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };

  const tunnel = async (req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> => {
    track(client).on('error', () => client.destroy());
    const target = authorityTarget(req.url);
    if (!target) return refuseSocket(client, { status: 403, reason: 'not a host:port authority' });
    const admitted = await admit(target.hostname, target.port, 'connect');
    if (!Array.isArray(admitted)) return refuseSocket(client, admitted);
    await splice(client, head, admitted, target.port, 'HTTP/1.1 200 Connection Established\r\n\r\n');
  };

  // Plain ws:// requests in absolute form (Chromium tunnels WebSockets with CONNECT, but any client may not).
  const forwardUpgrade = async (req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> => {
    track(client).on('error', () => client.destroy());
    const target = absoluteTarget(req.url, ['http:', 'ws:']);
    if (!target) return refuseSocket(client, { status: 403, reason: 'not an absolute http:// proxy request' });
    const admitted = await admit(target.hostname, portOf(target), 'upgrade');
    if (!Array.isArray(admitted)) return refuseSocket(client, admitted);
    const headers = forwardedHeaders(req.rawHeaders, ['connection', 'upgrade']);
    const lines = [`${req.method} ${target.pathname}${target.search} HTTP/1.1`];
    for (let i = 0; i < headers.length; i += 2) lines.push(`${headers[i]}: ${headers[i + 1]}`);
    await splice(client, head, admitted, portOf(target), '', `${lines.join('\r\n')}\r\n\r\n`);
  };

  /** Connects to the checked address and pipes the client's socket to it both ways. */
  const splice = async (client: Duplex, head: Buffer, addresses: string[], port: number, greeting: string, preamble = ''): Promise<void> => {
    let upstream: net.Socket;
    try {
      upstream = await connectToChecked(addresses, port);
    } catch (error) {
      return refuseSocket(client, { status: 502, reason: (error as Error).message });
    }
    if (client.destroyed) return void upstream.destroy();
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    if (greeting) client.write(greeting);
    if (preamble) upstream.write(preamble);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  };

  const server = http.createServer();
  server.on('request', (req, res) => void forwardHttp(req, res).catch(() => res.destroy()));
  server.on('connect', (req, socket, head) => void tunnel(req, socket, head).catch(() => socket.destroy()));
  server.on('upgrade', (req, socket, head) => void forwardUpgrade(req, socket, head).catch(() => socket.destroy()));
  server.on('connection', (socket) => void track(socket));
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolveListen());
  });
  ownPort = (server.address() as AddressInfo).port;
  log.info({ port: ownPort }, 'egress proxy listening');
  return {
    url: `http://127.0.0.1:${ownPort}`,
    port: ownPort,
    refusalFor: (host, port) => refusals.get(`${host.toLowerCase()}:${port}`),
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

function connectOnce(address: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    // An IP literal: net.connect does no lookup, so the address checked is the address connected to.
    const socket = net.connect({ host: address, port, noDelay: true });
    const timer = setTimeout(() => socket.destroy(new Error(`connecting to ${address}:${port} timed out`)), timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeListener('error', reject);
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** The target of an absolute-form request line, or undefined for anything else (origin form). */
function absoluteTarget(requestTarget: string | undefined, schemes: string[]): URL | undefined {
  if (!requestTarget || requestTarget.startsWith('/')) return undefined;
  const url = URL.parse(requestTarget);
  return url && schemes.includes(url.protocol) && url.hostname ? url : undefined;
}

/**
 * The host and port of a CONNECT request, the host canonicalised by the WHATWG parser (decimal,
 * hex, octal IPv4 ...). The port is read from the authority itself: the parser drops a scheme's
 * default port, so `host:80` (how Chromium tunnels a ws:// WebSocket) came out with no port.
 */
export function authorityTarget(authority: string | undefined): { hostname: string; port: number } | undefined {
  if (!authority || /[/?#@\\\s]/.test(authority)) return undefined;
  const port = /:(\d{1,5})$/.exec(authority)?.[1];
  if (port === undefined || Number(port) < 1 || Number(port) > 65535) return undefined;
  const url = URL.parse(`http://${authority}`);
  return url?.hostname ? { hostname: url.hostname, port: Number(port) } : undefined;
}

/** Raw headers minus hop-by-hop ones (and those named in Connection), except `keep` ones. */
function forwardedHeaders(raw: string[], keep: string[] = []): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection') for (const name of raw[i + 1]!.split(',')) named.add(name.trim().toLowerCase());
  }
  const headers: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!keep.includes(name) && (HOP_BY_HOP.has(name) || named.has(name))) continue;
    headers.push(raw[i]!, raw[i + 1]!);
  }
  return headers;
}

function refuseResponse(res: http.ServerResponse, refusal: Refusal): void {
  if (res.headersSent || res.destroyed) return void res.destroy();
  // An empty body: a refused image or frame shows nothing in the PDF rather than our words.
  res.writeHead(refusal.status, { [GUARD_HEADER]: refusal.status === 403 ? 'blocked' : 'failed', 'content-length': '0', 'cache-control': 'no-store' }).end();
}

function refuseSocket(client: Duplex, refusal: Refusal): void {
  if (client.destroyed) return;
  const text = refusal.status === 403 ? 'Forbidden' : 'Bad Gateway';
  client.end(
    `HTTP/1.1 ${refusal.status} ${text}\r\n${GUARD_HEADER}: ${refusal.status === 403 ? 'blocked' : 'failed'}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
  );
}

function isLocalAddress(address: string): boolean {
  const kind = addressClass(address);
  return kind === 'loopback' || kind === 'unspecified';
}
