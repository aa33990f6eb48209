import { sql, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../../../db/types.js';
import type { AccountsTable } from '../../../db/types/accounts.js';
import type { AccountRow } from '../accounts/index.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Queries of the signed-in user's own account. */
export const profileRepository = {
  findById(db: Db, id: string): Promise<AccountRow | undefined> {
    return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Another account already holding this normalized email (deleted ones included: the column is UNIQUE). */
  async emailOwner(db: Db, normalizedEmail: string, exceptId: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('accounts')
      .select('id')
      .where('normalizedEmail', '=', normalizedEmail)
      .where('id', '!=', exceptId)
      .executeTakeFirst();
    return row?.id;
  },

  /** Updates the version the form edited; 0 rows when it is stale. */
  async update(db: Db, id: string, version: number, values: Updateable<AccountsTable>): Promise<number> {
    const r = await db
      .updateTable('accounts')
      .set({ ...values, version: sql<number>`version + 1` })
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },

  /** A new password hash: a new version, so open forms of the account see it changed. */
  async setPassword(db: Db, id: string, hash: string, now: string): Promise<void> {
    await db
      .updateTable('accounts')
      .set({ password: hash, updatedAt: now, version: sql<number>`version + 1` })
      .where('id', '=', id)
      .execute();
  },

  async stageAvatar(db: Db, key: string, accountId: string, at: string): Promise<void> {
    await db.insertInto('staged_avatars').values({ key, accountId, createdAt: at }).execute();
  },

  /** The picture was saved: it is the account's, no longer staged. */
  async unstageAvatar(db: Db, key: string): Promise<void> {
    await db.deleteFrom('staged_avatars').where('key', '=', key).execute();
  },

  staleAvatars(db: Db, before: string, limit: number) {
    return db.selectFrom('staged_avatars').select(['key']).where('createdAt', '<', before).orderBy('createdAt').limit(limit).execute();
  },
};
