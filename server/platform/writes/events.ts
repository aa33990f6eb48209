import { EventEmitter } from 'node:events';
import pg from 'pg';

/**
 * Live events: after every committed write the server publishes `{topic, id, op}`.
 * In one process an EventEmitter carries them; with PostgreSQL, LISTEN/NOTIFY carries them
 * between server instances (every instance, including the sender, hears each event once).
 */
export interface LiveEvent {
  topic: string;
  id?: string | null | undefined;
  op: string;
  /** For topic 'session': the account whose session ended and why. */
  accountId?: string | undefined;
  reason?: string | undefined;
}

export interface EventBus {
  publish(event: LiveEvent): void;
  subscribe(listener: (event: LiveEvent) => void): () => void;
  close(): Promise<void>;
}

export class MemoryEventBus implements EventBus {
  protected emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  publish(event: LiveEvent): void {
    this.emitter.emit('event', event);
  }
  protected deliver(event: LiveEvent): void {
    this.emitter.emit('event', event);
  }
  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/** Delivered locally (never sent to other instances) when events may have been missed. */
export const RESYNC_EVENT: LiveEvent = { topic: '*', op: 'resync' };

const RECONNECT_DELAYS_MS = [100, 250, 500, 1000, 2000, 5000];

/**
 * LISTEN/NOTIFY between instances. The listening connection reconnects by itself after it
 * drops (database restart, a killed backend, a network cut) and re-subscribes; then it tells
 * this instance's listeners to refresh everything once (RESYNC_EVENT), since notifications sent
 * while it was away are lost. Notifications go out through a separate one-connection pool,
 * one after another, so publishing does not depend on the listener being up.
 */
export class PostgresEventBus extends MemoryEventBus {
  private listener: pg.Client | null = null;
  private readonly sender: pg.Pool;
  private ready: Promise<void>;
  private closed = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** How many times the listener came back after a drop (for logs and tests). */
  reconnects = 0;

  constructor(
    private connectionString: string,
    private onError: (err: unknown) => void,
    private channel = 'palayan_events',
    private applicationName = 'palayan-events',
    private onReconnect: () => void = () => undefined,
  ) {
    super();
    this.sender = new pg.Pool({ connectionString, max: 1, application_name: `${applicationName}:send` });
    this.sender.on('error', (err) => this.onError(err));
    this.sender.on('connect', (client) => {
      client.on('error', (err) => this.onError(err));
    });
    this.ready = this.listen();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: this.applicationName });
    client.on('notification', (msg) => {
      if (msg.channel !== this.channel || !msg.payload) return;
      try {
        this.deliver(JSON.parse(msg.payload) as LiveEvent);
      } catch (err) {
        this.onError(err);
      }
    });
    const lost = (err?: unknown) => {
      if (this.listener !== client) return;
      this.listener = null;
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
      if (err) this.onError(err);
      this.scheduleReconnect();
    };
    client.on('error', (err) => lost(err));
    client.on('end', () => lost());
    await client.connect();
    await client.query(`LISTEN ${client.escapeIdentifier(this.channel)}`);
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(this.attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.listen().then(
        () => {
          if (this.closed || !this.listener) return;
          this.attempt = 0;
          this.reconnects += 1;
          this.onReconnect();
          this.deliver(RESYNC_EVENT);
        },
        (err: unknown) => {
          this.onError(err);
          this.scheduleReconnect();
        },
      );
    }, delay);
    this.reconnectTimer.unref();
  }

  whenReady(): Promise<void> {
    return this.ready;
  }

  private sending: Promise<unknown> = Promise.resolve();

  override publish(event: LiveEvent): void {
    if (this.closed) return;
    const payload = JSON.stringify(event);
    this.sending = this.sending
      .then(() => this.sender.query('select pg_notify($1, $2)', [this.channel, payload]))
      .catch((err) => this.onError(err));
  }

  override async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.sending;
    await super.close();
    await this.ready.catch(() => undefined);
    await this.listener?.end().catch(() => undefined);
    this.listener = null;
    await this.sender.end().catch(() => undefined);
  }
}
