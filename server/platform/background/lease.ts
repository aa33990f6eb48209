import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import type { Database } from '../../db/types.js';

type Db = Kysely<Database> | Transaction<Database>;
type Column<T extends keyof Database> = keyof Database[T] & string;

/**
 * Where a kind of work item keeps its lease: on the item's own row, a holder column and a time
 * column. The time is either when the lease runs out ('until') or when its holder last renewed
 * it ('renewed'), the lease then running out ttlMs later.
 */
export interface LeaseOn<T extends keyof Database> {
  table: T;
  key: Column<T>;
  holder: Column<T>;
  time: Column<T>;
  timeIs: 'until' | 'renewed';
  ttlMs: number;
}

/** More of the lease's own statement: columns it sets besides the lease, conditions besides the lease's. */
export interface Also<T extends keyof Database> {
  set?: Partial<Record<Column<T>, string | number | null>>;
  where?: Expression<SqlBool>;
}

/**
 * A lease on work items: a process claims an item, renews the claim while it works and
 * releases it; a claim that ran out (its holder died or hangs) is taken over. Each call is one
 * conditional UPDATE, so of any number of claimers at once one wins, and a holder whose item
 * was taken over has its renewal and release refused: they never touch the new holder's claim.
 */
export function lease<T extends keyof Database>(on: LeaseOn<T>) {
  const iso = (ms: number) => new Date(ms).toISOString();
  const holder = sql.ref(on.holder);
  const time = sql.ref(on.time);
  const written = (now: number) => iso(on.timeIs === 'until' ? now + on.ttlMs : now);
  const cutoff = (now: number) => iso(on.timeIs === 'until' ? now : now - on.ttlMs);
  const free = (now: number): RawBuilder<SqlBool> => sql<SqlBool>`(${holder} is null or ${time} < ${cutoff(now)})`;

  async function update(db: Db, id: string, set: RawBuilder<unknown>[], where: RawBuilder<SqlBool>, also: Also<T>): Promise<boolean> {
    const extra = Object.entries(also.set ?? {}).map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
    const more = also.where ? sql` and ${also.where}` : sql``;
    const result = await sql`update ${sql.table(on.table)} set ${sql.join([...set, ...extra])}
      where ${sql.ref(on.key)} = ${id} and ${where}${more}`.execute(db);
    return Number(result.numAffectedRows ?? 0) === 1;
  }

  return {
    /** Held by nobody, or run out at `now`: for the queries that look for work to claim. */
    free,

    /**
     * Takes the item for `by`: true when nobody held it, its lease ran out, or `by` held it
     * already (a holder asking again lost track of it: an error in the middle of its work).
     */
    claim(db: Db, id: string, by: string, also: Also<T> = {}, now = Date.now()): Promise<boolean> {
      return update(
        db,
        id,
        [sql`${holder} = ${by}`, sql`${time} = ${written(now)}`],
        sql<SqlBool>`(${free(now)} or ${holder} = ${by})`,
        also,
      );
    },

    /** Moves the lease on; false when `by` no longer holds the item (taken over, released, or `also.where` fails). */
    renew(db: Db, id: string, by: string, also: Also<T> = {}, now = Date.now()): Promise<boolean> {
      return update(db, id, [sql`${time} = ${written(now)}`], sql<SqlBool>`${holder} = ${by}`, also);
    },

    /** Gives the item back; false when `by` no longer held it. */
    release(db: Db, id: string, by: string, also: Also<T> = {}): Promise<boolean> {
      return update(db, id, [sql`${holder} = ${null}`, sql`${time} = ${null}`], sql<SqlBool>`${holder} = ${by}`, also);
    },
  };
}
