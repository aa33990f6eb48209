import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/types.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The cache_stamps and cache_stamp_notes tables (migrations 199, 201): the only file that names them. */
export const stampsRepository = {
  /** Moves a name's stamp: the row is locked until the write commits, so seqs follow commits. */
  put: (trx: Db, name: string, stamp: string) =>
    trx
      .insertInto('cache_stamps')
      .values({ name, stamp, seq: 1, prev: '' })
      .onConflict((oc) => oc.column('name').doUpdateSet({ stamp, seq: sql`cache_stamps.seq + 1`, prev: sql`cache_stamps.stamp` }))
      .execute(),

  all: (db: Db) => db.selectFrom('cache_stamps').select(['name', 'stamp']).execute(),

  one: (db: Db, name: string) => db.selectFrom('cache_stamps').select(['stamp', 'seq']).where('name', '=', name).executeTakeFirst(),

  /** The notes of the moves after `after` up to `upTo`, in order, at most `limit`. */
  notes: (db: Db, name: string, after: number, upTo: number, limit: number) =>
    db
      .selectFrom('cache_stamp_notes')
      .select(['seq', 'prev', 'note'])
      .where('name', '=', name)
      .where('seq', '>', after)
      .where('seq', '<=', upTo)
      .orderBy('seq')
      .orderBy('part')
      .limit(limit)
      .execute(),
};
