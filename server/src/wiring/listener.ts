// The listening socket: binds, writes the discovery file, counts the requests not yet answered
// (shutdown waits for them) and keeps idle connections open longer than a load balancer does.

import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config.ts';
import type { DataDirLock } from '../stores/data-dir-lock.ts';
import { writeDiscoveryFile } from '../stores/discovery-file.ts';
import { SERVICE_VERSION } from './context.ts';

/** How long an idle keep-alive connection stays open: longer than a load balancer's 60 s. */
const KEEP_ALIVE_MS = 65_000;

/** What express's app offers for listening. */
interface Listenable {
  listen(port: number, host: string, callback: (error?: Error) => void): Server;
}

export class Listener {
  server: Server | undefined;
  /** Requests not yet answered: shutdown lets a finished render's response out before cutting connections. */
  answering = 0;

  constructor(
    private readonly http: Listenable,
    private readonly config: Config,
    private readonly lock: DataDirLock,
  ) {}

  /** Starts listening; resolves with the base URL. */
  listen(port: number): Promise<string> {
    const { config, lock } = this;
    return new Promise((resolve, reject) => {
      // Express 5 also calls this back with the error when listening fails (a port in use).
      const server = this.http.listen(port, config.host, (error?: Error) => {
        if (error) return reject(error);
        const { port } = server.address() as AddressInfo;
        const host = config.host.includes(':') ? `[${config.host}]` : config.host;
        const url = `http://${host}:${port}`;
        // Local tools find the server by DATA_DIR/server.json (never the token); the lock names its URL too.
        const info = { base_url: url, port, pid: process.pid, version: SERVICE_VERSION, started_at: new Date().toISOString() };
        Promise.all([writeDiscoveryFile(config.dataDir, info), lock.setUrl(url)]).then(() => resolve(url), reject);
      });
      this.server = server;
      server.once('error', reject);
      // An idle keep-alive connection is closed by the client or the proxy in front, never by us
      // first: with Node's 5 s a client that reuses a connection just as it times out gets its
      // request cut ("socket hang up"), and load balancers keep idle connections 60 s. close()
      // ends idle connections at once, so this does not slow a shutdown.
      server.keepAliveTimeout = KEEP_ALIVE_MS;
      server.headersTimeout = KEEP_ALIVE_MS + 1_000;
      server.on('request', (_request, response: ServerResponse) => {
        this.answering++;
        response.once('close', () => this.answering--);
      });
    });
  }
}
