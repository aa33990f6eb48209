import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types.js';

export interface ThrottleState {
  /** True once `max` attempts were counted within the window. */
  blocked: boolean;
  count: number;
  /** When the window ends (0 when nothing is counted). */
  retryAfterMs: number;
}

const PRUNE_EVERY = 500;

/**
 * Counts attempts per key in a fixed window, in the database, so every server instance shares
 * one budget (login failures per account, attempts per IP, recovery failures). One upsert per
 * counted attempt; a read per check.
 */
export class Throttle {
  private hits = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly prefix: string,
    readonly max: number,
    readonly windowMs: number,
  ) {}

  private key(key: string): string {
    return `${this.prefix}:${key}`;
  }

  async check(key: string, now = Date.now()): Promise<ThrottleState> {
    const row = await this.db.selectFrom('throttles').select(['count', 'resetAt']).where('key', '=', this.key(key)).executeTakeFirst();
    const resetAt = row ? Date.parse(row.resetAt) : 0;
    if (!row || resetAt <= now) return { blocked: false, count: 0, retryAfterMs: 0 };
    return { blocked: row.count >= this.max, count: row.count, retryAfterMs: resetAt - now };
  }

  /** Counts one attempt and returns the state after it. */
  async hit(key: string, now = Date.now()): Promise<ThrottleState> {
    const nowIso = new Date(now).toISOString();
    const resetAt = new Date(now + this.windowMs).toISOString();
    const row = await this.db.insertInto('throttles')
      .values({ key: this.key(key), count: 1, resetAt })
      .onConflict((oc) => oc.column('key').doUpdateSet({
        count: sql<number>`case when throttles."resetAt" <= ${nowIso} then 1 else throttles.count + 1 end`,
        resetAt: sql<string>`case when throttles."resetAt" <= ${nowIso} then excluded."resetAt" else throttles."resetAt" end`,
      }))
      .returning(['count', 'resetAt'])
      .executeTakeFirstOrThrow();
    this.hits += 1;
    if (this.hits % PRUNE_EVERY === 0) {
      await this.db.deleteFrom('throttles').where('resetAt', '<', nowIso).execute();
    }
    return { blocked: row.count >= this.max, count: row.count, retryAfterMs: Date.parse(row.resetAt) - now };
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('throttles').where('key', '=', this.key(key)).execute();
  }
}

/** Whole minutes to wait, at least 1, for a message a person reads. */
export function minutesToWait(ms: number): number {
  return Math.max(1, Math.ceil(ms / 60_000));
}
