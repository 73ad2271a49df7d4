// Loopback HTTP servers for tests: a fixture server with scripted routes, and canaries that
// record every hit (a test fails when a canary was reached).

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type RouteHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface FixtureServer {
  url: string;
  port: number;
  /** Requests seen, as "METHOD /path". */
  hits: string[];
  close(): Promise<void>;
}

export async function startFixtureServer(routes: Record<string, RouteHandler | string>, host = '127.0.0.1'): Promise<FixtureServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.push(`${req.method} ${req.url}`);
    const route = routes[path];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    } else if (typeof route === 'string') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(route);
    } else {
      route(req, res);
    }
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
