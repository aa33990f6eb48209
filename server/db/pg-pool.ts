import type pg from 'pg';

/**
 * A connection the database ends (a restart, pg_terminate_backend: 57P01) emits 'error'; with
 * no listener that would end the process. Idle ones are dropped by the pool ('error' on the
 * pool); checked-out ones fail their query, which the request answers with a 503, and are
 * dropped when released. The pool then opens new connections as requests need them.
 */
export function keepAlive(pool: pg.Pool): void {
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
}
