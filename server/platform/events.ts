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


export class PostgresEventBus extends MemoryEventBus {
  private client: pg.Client;
  private ready: Promise<void>;
  private closed = false;

  constructor(private connectionString: string, private onError: (err: unknown) => void, private channel = 'palayan_events') {
    super();
    this.client = new pg.Client({ connectionString });
    this.ready = this.connect();
  }

  private async connect(): Promise<void> {
    this.client.on('notification', (msg) => {
      if (msg.channel !== this.channel || !msg.payload) return;
      try {
        this.deliver(JSON.parse(msg.payload) as LiveEvent);
      } catch (err) {
        this.onError(err);
      }
    });
    this.client.on('error', (err) => this.onError(err));
    await this.client.connect();
    await this.client.query(`LISTEN ${this.client.escapeIdentifier(this.channel)}`);
  }

  whenReady(): Promise<void> {
    return this.ready;
  }

  /** Notifications go out one after another: one pg connection runs one query at a time. */
  private sending: Promise<unknown> = Promise.resolve();

  override publish(event: LiveEvent): void {
    if (this.closed) return;
    this.sending = this.sending
      .then(() => this.ready)
      .then(() => this.client.query('select pg_notify($1, $2)', [this.channel, JSON.stringify(event)]))
      .catch((err) => this.onError(err));
  }

  override async close(): Promise<void> {
    this.closed = true;
    await this.sending;
    await super.close();
    await this.ready.catch(() => undefined);
    await this.client.end().catch(() => undefined);
  }
}
