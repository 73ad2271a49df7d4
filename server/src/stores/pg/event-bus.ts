// The admin event bus across instances (issue 13): an event published on any instance is sent
// with NOTIFY and handed to the subscribers of every instance, this one included, when its LISTEN
// connection receives it. PostgreSQL delivers notifications in commit order, so every instance's
// stream shows the same events in the same order. One instance's events are sent one after
// another, in the order they were published. Events are at most 8000 bytes (NOTIFY's limit; ours
// are a few hundred). While the LISTEN connection is being re-established, events are missed,
// as for any subscriber that was not listening (events.ts).

import pg from 'pg';
import { EventBus, type ServerEvent, type ServerEventMap, type ServerEventType } from '../../events.ts';

const CHANNEL = 'quire_events';
const RECONNECT_MS = 1000;

export class PgEventBus extends EventBus {
  private sending: Promise<void> = Promise.resolve();
  private listener: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
    private readonly onError: (error: unknown, message: string) => void,
  ) {
    super();
  }

  /** Starts listening (resolves once LISTEN is in force, so no event published after it is missed). */
  static async open(pool: pg.Pool, url: string, onError: (error: unknown, message: string) => void = () => undefined): Promise<PgEventBus> {
    const bus = new PgEventBus(pool, url, onError);
    await bus.listen();
    return bus;
  }

  override publish<K extends ServerEventType>(type: K, data: ServerEventMap[K]): void {
    if (this.closed) return;
    const payload = JSON.stringify({ type, data });
    this.sending = this.sending
      .then(async () => void (await this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload])))
      .catch((error: unknown) => this.onError(error, 'an admin event could not be sent to the other instances'));
  }

  /** Waits until the events published so far are sent, each NOTIFY committed. */
  override async flush(): Promise<void> {
    await this.sending;
  }

  override close(): void {
    if (this.closed) return;
    super.close();
    clearTimeout(this.reconnectTimer);
    void this.listener?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        this.deliver(JSON.parse(message.payload) as ServerEvent);
      } catch (error) {
        this.onError(error, 'an admin event from another instance could not be read');
      }
    });
    const lost = (error?: unknown) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.reconnect(error);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.listener = client;
  }

  private reconnect(error?: unknown): void {
    if (this.closed) return;
    if (error) this.onError(error, 'the admin event connection to PostgreSQL was lost; reconnecting');
    this.reconnectTimer = setTimeout(() => void this.listen().catch((retryError: unknown) => this.reconnect(retryError)), RECONNECT_MS);
    this.reconnectTimer.unref();
  }
}
