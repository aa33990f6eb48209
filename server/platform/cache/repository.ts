import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The cache_stamps table (migration 199): the only file that names it. */
export const stampsRepository = {
  put: (trx: Db, name: string, stamp: string) =>
    trx
      .insertInto('cache_stamps')
      .values({ name, stamp })
      .onConflict((oc) => oc.column('name').doUpdateSet({ stamp }))
      .execute(),

  all: (db: Db) => db.selectFrom('cache_stamps').select(['name', 'stamp']).execute(),
};
