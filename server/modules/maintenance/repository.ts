import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.js';

type Db = Kysely<Database> | Transaction<Database>;

export const maintenanceRepository = {
  async find(db: Db, id: string): Promise<{ data: Record<string, unknown>; version: number; createdAt: string; updatedAt: string | null } | undefined> {
    const row = await db.selectFrom('maintenance').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return { data: JSON.parse(row.data) as Record<string, unknown>, version: row.version, createdAt: row.createdAt, updatedAt: row.updatedAt };
  },

  /** Inserts the document unless it exists (safe when two instances start at once). */
  async insertIfMissing(db: Db, id: string, data: Record<string, unknown>, now: string): Promise<void> {
    await db.insertInto('maintenance').values({ id, data: JSON.stringify(data), createdAt: now, updatedAt: now })
      .onConflict((oc) => oc.column('id').doNothing()).execute();
  },

  async update(db: Db, id: string, data: Record<string, unknown>, now: string): Promise<void> {
    await db.updateTable('maintenance')
      .set((eb) => ({ data: JSON.stringify(data), updatedAt: now, version: eb('version', '+', 1) }))
      .where('id', '=', id).execute();
  },
};
