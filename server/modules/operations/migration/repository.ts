import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';

type Db = Kysely<Database> | Transaction<Database>;
/** The import writes mapped rows of several tables by name; the mappers shape them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table chosen at run time
type ByName = Kysely<any>;
export type ImportTable = 'accounts' | 'rice_seed_varieties' | 'rice_local_pests' | 'rice_local_diseases' | 'audit_logs';

/** Queries of the import: by-id lookups and plain inserts/updates of the mapped rows. */
export const migrationRepository = {
  findById(db: Db, table: ImportTable, id: string): Promise<Record<string, unknown> | undefined> {
    return (db as ByName).selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
  },
  async insert(db: Db, table: ImportTable, row: Record<string, unknown>): Promise<void> {
    await (db as ByName).insertInto(table).values(row).execute();
  },
  async update(db: Db, table: ImportTable, id: string, row: Record<string, unknown>): Promise<void> {
    await (db as ByName).updateTable(table).set(row).where('id', '=', id).execute();
  },
  async lastImportHash(db: Db, collection: string, docId: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('import_records')
      .select('hash')
      .where('collection', '=', collection)
      .where('docId', '=', docId)
      .executeTakeFirst();
    return row?.hash;
  },
  async recordImport(db: Db, collection: string, docId: string, hash: string, importedAt: string): Promise<void> {
    await db
      .insertInto('import_records')
      .values({ collection, docId, hash, importedAt })
      .onConflict((oc) => oc.columns(['collection', 'docId']).doUpdateSet({ hash, importedAt }))
      .execute();
  },
  findAccountIdByNormalized(db: Db, field: 'normalizedUsername' | 'normalizedEmail', value: string) {
    return db.selectFrom('accounts').select('id').where(field, '=', value).executeTakeFirst();
  },
};
