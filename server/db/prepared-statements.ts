import type { Kysely } from 'kysely';
import pg from 'pg';
import { keepAlive } from './pg-pool.js';

/**
 * PostgreSQL: the statements the server runs on every search, and the session lookup of every
 * request, are prepared once per connection and planned once for any values (plan_cache_mode =
 * force_generic_plan), so a call skips parsing and planning, which for these short statements
 * are a large share of their cost. They run on connections of their own
 * (POSTGRES_READ_CONNECTIONS of them): no other query is planned that way. A statement whose plan
 * depends much on its values (how many rows a term matches) is chosen before it runs, by the
 * search's own rules, not by the planner.
 */
const pools = new WeakMap<Kysely<any>, pg.Pool>();

export function preparedStatementsPool(connectionString: string, max: number, applicationName?: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    ...(applicationName ? { application_name: applicationName } : {}),
    // Before the connection's first statement (pg-pool awaits it). A server without the setting
    // (before PostgreSQL 12) plans them as usual.
    onConnect: (client) =>
      client.query('set plan_cache_mode = force_generic_plan').then(
        () => undefined,
        () => undefined,
      ),
  });
  keepAlive(pool);
  return pool;
}

export function registerPreparedStatements(db: Kysely<any>, pool: pg.Pool): void {
  pools.set(db, pool);
}

/** The pool that runs `db`'s prepared statements; none inside a transaction (its own connection) or on SQLite. */
export function preparedStatementsOf(db: Kysely<any>): pg.Pool | undefined {
  return pools.get(db);
}
