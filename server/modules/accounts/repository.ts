import type { Kysely, Selectable, Transaction, Insertable, Updateable } from 'kysely';
import type { AccountsTable, Database } from '../../db/types.js';

export type AccountRow = Selectable<AccountsTable>;
type Db = Kysely<Database> | Transaction<Database>;

export function normalizeIdentity(value: string): string {
  return value.trim().toLowerCase();
}

export const accountsRepository = {
  findById(db: Db, id: string): Promise<AccountRow | undefined> {
    return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Matches the login identifier against username or email, case-insensitively. */
  findByIdentifier(db: Db, identifier: string): Promise<AccountRow | undefined> {
    const key = normalizeIdentity(identifier);
    return db.selectFrom('accounts').selectAll()
      .where((eb) => eb.or([eb('normalizedUsername', '=', key), eb('normalizedEmail', '=', key)]))
      .orderBy('isDeleted', 'asc')
      .executeTakeFirst();
  },

  async countAll(db: Db): Promise<number> {
    const row = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async insert(db: Db, values: Insertable<AccountsTable>): Promise<void> {
    await db.insertInto('accounts').values(values).execute();
  },

  async update(db: Db, id: string, values: Updateable<AccountsTable>): Promise<void> {
    await db.updateTable('accounts').set(values).where('id', '=', id).execute();
  },
};
