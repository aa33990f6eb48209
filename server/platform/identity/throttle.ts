import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/types.js';

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
    /** How a key is counted: clientKey counts an address per client (an IPv6 /64 as one). */
    private readonly keyOf: (key: string) => string = (key) => key,
  ) {}

  private key(key: string): string {
    return `${this.prefix}:${this.keyOf(key)}`;
  }

  async check(key: string, now = Date.now()): Promise<ThrottleState> {
    const row = await this.db.selectFrom('throttles').select(['count', 'resetAt']).where('key', '=', this.key(key)).executeTakeFirst();
    const resetAt = row ? Date.parse(row.resetAt) : 0;
    if (!row || resetAt <= now) return { blocked: false, count: 0, retryAfterMs: 0 };
    return { blocked: row.count >= this.max, count: row.count, retryAfterMs: resetAt - now };
  }

  /** Counts one attempt and returns the state after it. */
  async hit(key: string, now = Date.now()): Promise<ThrottleState> {
    const counted = (await countHits(this.db, new Map([[this.key(key), 1]]), this.windowMs, now)).get(this.key(key))!;
    this.hits += 1;
    if (this.hits % PRUNE_EVERY === 0) await pruneThrottles(this.db, now);
    return { blocked: counted.count >= this.max, count: counted.count, retryAfterMs: counted.resetAt - now };
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('throttles').where('key', '=', this.key(key)).execute();
  }
}

export interface CountedKey {
  /** Hits counted in the key's window, these included. */
  count: number;
  /** When the key's window ends (epoch ms). */
  resetAt: number;
}

/**
 * Counts a batch's hits on several fixed-window keys in one statement, before anything is
 * checked: `hits` maps each key to its hits in the batch (negative: hits given back in the same
 * transaction); the answer is each key's count after them. Rows are written in key order, so
 * batches of several instances lock them in one order.
 */
export async function countHits(
  db: Kysely<Database> | Transaction<Database>,
  hits: ReadonlyMap<string, number>,
  windowMs: number,
  now = Date.now(),
): Promise<Map<string, CountedKey>> {
  if (hits.size === 0) return new Map();
  const at = new Date(now).toISOString();
  const resetAt = new Date(now + windowMs).toISOString();
  const values = [...hits]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, n]) => ({ key, count: n, resetAt, lockedUntil: null, lockouts: 0 }));
  const rows = await db
    .insertInto('throttles')
    .values(values)
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when throttles."resetAt" <= ${at} then excluded.count else throttles.count + excluded.count end`,
        resetAt: sql<string>`case when throttles."resetAt" <= ${at} then excluded."resetAt" else throttles."resetAt" end`,
      }),
    )
    .returning(['key', 'count', 'resetAt'])
    .execute();
  return new Map(rows.map((r) => [r.key, { count: Number(r.count), resetAt: Date.parse(r.resetAt) }]));
}

/** Drops the rows whose window has ended, keeping a locking budget's lockouts for a day. */
export async function pruneThrottles(db: Kysely<Database>, now: number): Promise<void> {
  const nowIso = new Date(now).toISOString();
  await db
    .deleteFrom('throttles')
    .where('resetAt', '<', nowIso)
    .where((eb) => eb.or([eb('lockouts', '=', 0), eb('resetAt', '<', new Date(now - LOCKOUT_MEMORY_MS).toISOString())]))
    .execute();
}

/** A key's lockouts in a row are forgotten after this long without an attempt. */
const LOCKOUT_MEMORY_MS = 24 * 60 * 60_000;

export interface BudgetSpend {
  /** False: the budget is spent or the key is locked; the attempt must not be checked. */
  allowed: boolean;
  /** Attempts counted in this window, this one included. */
  used: number;
  /** Lockouts in a row before this attempt. */
  lockouts: number;
  /** Until the key may try again, when not allowed. */
  retryAfterMs: number;
}

export interface BudgetFailure {
  /** True when this failure used the budget's last attempt and locked the key. */
  locked: boolean;
  /** How long the lock lasts (0 when not locked). */
  lockMs: number;
  /** Lockouts in a row, this one included. */
  lockouts: number;
}

/**
 * An attempt budget for guesses (passwords, second-factor and recovery codes, security
 * answers): each attempt is counted in the database before it is checked, in one atomic
 * statement, so any number of parallel requests on any number of instances get at most `max`
 * checks per window. The failure that uses the last attempt locks the key for `lockMs`,
 * doubling with each lockout in a row (up to `maxLockMs`); a success forgets it all.
 */
export class AttemptBudget {
  private spends = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly prefix: string,
    readonly max: number,
    readonly windowMs: number,
    readonly lockMs: number,
    readonly maxLockMs = 24 * 60 * 60_000,
  ) {}

  private key(key: string): string {
    return `${this.prefix}:${key}`;
  }

  /** Counts one attempt, before it is checked. */
  async spend(key: string, now = Date.now()): Promise<BudgetSpend> {
    const at = new Date(now).toISOString();
    const forgetBefore = new Date(now - LOCKOUT_MEMORY_MS).toISOString();
    const locked = sql<boolean>`(throttles."lockedUntil" is not null and throttles."lockedUntil" > ${at})`;
    const windowOver = sql<boolean>`throttles."resetAt" <= ${at}`;
    const row = await this.db
      .insertInto('throttles')
      .values({ key: this.key(key), count: 1, resetAt: new Date(now + this.windowMs).toISOString(), lockedUntil: null, lockouts: 0 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when ${locked} then throttles.count when ${windowOver} then 1 else throttles.count + 1 end`,
          resetAt: sql<string>`case when ${locked} then throttles."resetAt" when ${windowOver} then excluded."resetAt" else throttles."resetAt" end`,
          lockouts: sql<number>`case when throttles."resetAt" <= ${forgetBefore} then 0 else throttles.lockouts end`,
        }),
      )
      .returning(['count', 'resetAt', 'lockedUntil', 'lockouts'])
      .executeTakeFirstOrThrow();
    this.spends += 1;
    if (this.spends % PRUNE_EVERY === 0) await pruneThrottles(this.db, now);
    const lockedUntil = row.lockedUntil ? Date.parse(row.lockedUntil) : 0;
    if (lockedUntil > now) return { allowed: false, used: row.count, lockouts: row.lockouts, retryAfterMs: lockedUntil - now };
    const allowed = row.count <= this.max;
    return { allowed, used: row.count, lockouts: row.lockouts, retryAfterMs: allowed ? 0 : Date.parse(row.resetAt) - now };
  }

  /** The attempt was wrong: if it used the last attempt of the budget, the key is locked. */
  async failed(key: string, spent: BudgetSpend, now = Date.now()): Promise<BudgetFailure> {
    if (spent.used < this.max) return { locked: false, lockMs: 0, lockouts: spent.lockouts };
    const lockMs = Math.min(this.maxLockMs, this.lockMs * 2 ** spent.lockouts);
    const until = new Date(now + lockMs).toISOString();
    await this.db
      .updateTable('throttles')
      .set({ lockedUntil: until, resetAt: until, count: 0, lockouts: spent.lockouts + 1 })
      .where('key', '=', this.key(key))
      .execute();
    return { locked: true, lockMs, lockouts: spent.lockouts + 1 };
  }

  /** How the key stands, without counting an attempt (to tell a locked user early). */
  async lockedFor(key: string, now = Date.now()): Promise<number> {
    const row = await this.db.selectFrom('throttles').select(['lockedUntil']).where('key', '=', this.key(key)).executeTakeFirst();
    const until = row?.lockedUntil ? Date.parse(row.lockedUntil) : 0;
    return Math.max(0, until - now);
  }

  /**
   * A right answer that does not end the guessing (a password before its second factor): its
   * attempt is given back, and the count stays for the guesses still to come.
   */
  async refund(key: string): Promise<void> {
    await this.db
      .updateTable('throttles')
      .set((eb) => ({ count: eb('count', '-', 1) }))
      .where('key', '=', this.key(key))
      .where('count', '>', 0)
      .execute();
  }

  /** A right answer: the key's attempts and lockouts are forgotten. */
  async succeeded(key: string): Promise<void> {
    await this.db.deleteFrom('throttles').where('key', '=', this.key(key)).execute();
  }
}

/** Whole minutes to wait, at least 1, for a message a person reads. */
export function minutesToWait(ms: number): number {
  return Math.max(1, Math.ceil(ms / 60_000));
}

/**
 * The sign-in budgets of an account: wrong passwords and codes ('login-failures'), and codes tried
 * to sign in while it is locked ('login-unlock'). A new password (a reset link, the security
 * question, a super admin's edit) and a super admin's Unlock forget both, so no lock keeps the
 * account's owner out for good.
 */
export const SIGN_IN_BUDGETS = { guesses: 'login-failures', unlock: 'login-unlock' } as const;

export function signInLockKey(accountId: string): string {
  return `account:${accountId}`;
}

export async function forgetSignInLock(db: Kysely<Database> | Transaction<Database>, accountId: string): Promise<void> {
  const key = signInLockKey(accountId);
  await db
    .deleteFrom('throttles')
    .where('key', 'in', [`${SIGN_IN_BUDGETS.guesses}:${key}`, `${SIGN_IN_BUDGETS.unlock}:${key}`])
    .execute();
}

/** When the account's sign-in lock ends (ISO), or null when it is not locked. */
export async function signInLockedUntil(db: Kysely<Database>, accountId: string, now = Date.now()): Promise<string | null> {
  const row = await db
    .selectFrom('throttles')
    .select('lockedUntil')
    .where('key', '=', `${SIGN_IN_BUDGETS.guesses}:${signInLockKey(accountId)}`)
    .executeTakeFirst();
  return row?.lockedUntil && Date.parse(row.lockedUntil) > now ? row.lockedUntil : null;
}
