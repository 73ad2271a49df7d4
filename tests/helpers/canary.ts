// Loopback servers for the network guard tests. A recording server counts every TCP connection
// (so a TLS handshake or a WebSocket upgrade counts, not only complete HTTP requests) and
// records request lines; a canary is one that must never be reached. A UDP canary counts
// datagrams (WebRTC STUN/TURN). Only loopback addresses are ever used.

import dgram from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface RecordingServer {
  /** Base URL, e.g. http://127.0.0.1:41234 or http://[::1]:41234. */
  url: string;
  host: string;
  port: number;
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** "METHOD /path" of every request, upgrades included. */
  hits: string[];
  /** Paths requested (no query). */
  paths(): string[];
  close(): Promise<void>;
}

/** Starts an HTTP server on host:port (0: any free port) answering routes, 204 for anything else. */
export async function startRecordingServer(host = '127.0.0.1', port = 0, routes: Record<string, Route | string> = {}): Promise<RecordingServer> {
  const hits: string[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const route = routes[(req.url ?? '/').split('?')[0]!];
    if (typeof route === 'string') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(route);
    else if (route) route(req, res);
    else res.writeHead(204, { 'access-control-allow-origin': '*' }).end();
  });
  server.on('connection', () => void connections++);
  server.on('upgrade', (req, socket) => {
    hits.push(`${req.method} ${req.url} (upgrade)`);
    socket.destroy();
  });
  server.on('connect', (req, socket) => {
    hits.push(`CONNECT ${req.url}`);
    socket.destroy();
  });
  server.on('clientError', (_error, socket) => {
    hits.push('(unparsable request, e.g. a TLS handshake)');
    socket.destroy();
  });
  server.keepAliveTimeout = 500;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    host,
    port: bound,
    get connections() {
      return connections;
    },
    hits,
    paths: () => hits.map((hit) => hit.split(' ')[1]?.split('?')[0] ?? ''),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface UdpCanary {
  port: number;
  readonly datagrams: number;
  close(): Promise<void>;
}

/** A UDP socket on 127.0.0.1 that counts datagrams (STUN binding requests, TURN allocations). */
export async function startUdpCanary(): Promise<UdpCanary> {
  const socket = dgram.createSocket('udp4');
  let datagrams = 0;
  socket.on('message', () => void datagrams++);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return {
    port: socket.address().port,
    get datagrams() {
      return datagrams;
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

/** A resolver for the guard that knows only the names given and fails for every other (no real DNS). */
export function fakeResolver(names: Record<string, string[] | (() => string[])>): (host: string) => Promise<string[]> {
  return async (host) => {
    const entry = names[host];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return typeof entry === 'function' ? entry() : entry;
  };
}
