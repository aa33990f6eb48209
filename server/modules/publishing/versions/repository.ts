import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { VersionCollection } from '../../../../common/versions.js';
import type { Database } from '../../../db/types.js';
import type { RecordVersionsTable } from '../../../db/types/content.js';
import { chunks } from '../../../db/dialect.js';

type Db = Kysely<Database> | Transaction<Database>;
export type VersionRow = Selectable<RecordVersionsTable>;
const LIST_COLUMNS = ['number', 'recordVersion', 'createdAt', 'actorName', 'auditId', 'summary'] as const;
export type VersionListRow = Pick<VersionRow, (typeof LIST_COLUMNS)[number]>;
/** The versioned tables: one per collection of common/versions.ts. */
type Table = VersionCollection;

/** Queries of versions, and the few reads of the versioned tables their snapshots need. */
export const versionsRepository = {
  latest(db: Db, collection: string, documentId: string): Promise<Pick<VersionRow, 'number' | 'snapshot'> | undefined> {
    return db
      .selectFrom('record_versions')
      .select(['number', 'snapshot'])
      .where('collection', '=', collection)
      .where('documentId', '=', documentId)
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();
  },

  /** The latest version of each of these records of a collection. */
  async latestOf(
    db: Db,
    collection: string,
    documentIds: readonly string[],
  ): Promise<Map<string, Pick<VersionRow, 'number' | 'snapshot'>>> {
    const out = new Map<string, Pick<VersionRow, 'number' | 'snapshot'>>();
    for (const part of chunks([...new Set(documentIds)])) {
      const rows = await db
        .selectFrom('record_versions as v')
        .select(['v.documentId', 'v.number', 'v.snapshot'])
        .where('v.collection', '=', collection)
        .where('v.documentId', 'in', part)
        .where('v.number', '=', (eb) =>
          eb
            .selectFrom('record_versions as w')
            .select((w) => w.fn.max('w.number').as('n'))
            .whereRef('w.collection', '=', 'v.collection')
            .whereRef('w.documentId', '=', 'v.documentId'),
        )
        .execute();
      for (const r of rows) out.set(r.documentId, { number: Number(r.number), snapshot: r.snapshot });
    }
    return out;
  },

  async insert(db: Db, rows: Insertable<RecordVersionsTable>[]): Promise<void> {
    for (const part of chunks(rows, 200)) await db.insertInto('record_versions').values(part).execute();
  },

  /** A first version for records that have none; one another instance wrote first is left as it is. */
  async insertFirst(db: Db, rows: Insertable<RecordVersionsTable>[]): Promise<void> {
    for (const part of chunks(rows, 200)) {
      await db
        .insertInto('record_versions')
        .values(part)
        .onConflict((oc) => oc.columns(['collection', 'documentId', 'number']).doNothing())
        .execute();
    }
  },

  /** Newest first, numbered below `before` when given. */
  page(db: Db, collection: string, documentId: string, before: number | undefined, limit: number): Promise<VersionListRow[]> {
    let q = db
      .selectFrom('record_versions')
      .select([...LIST_COLUMNS])
      .where('collection', '=', collection)
      .where('documentId', '=', documentId);
    if (before !== undefined) q = q.where('number', '<', before);
    return q.orderBy('number', 'desc').limit(limit).execute();
  },

  find(db: Db, collection: string, documentId: string, number: number): Promise<VersionRow | undefined> {
    return db
      .selectFrom('record_versions')
      .selectAll()
      .where('collection', '=', collection)
      .where('documentId', '=', documentId)
      .where('number', '=', number)
      .executeTakeFirst();
  },

  /** The state a record had at one of its edit versions (a pending change's base), newest first if several. */
  atRecordVersion(db: Db, collection: string, documentId: string, recordVersion: number): Promise<VersionRow | undefined> {
    return db
      .selectFrom('record_versions')
      .selectAll()
      .where('collection', '=', collection)
      .where('documentId', '=', documentId)
      .where('recordVersion', '=', recordVersion)
      .orderBy('number', 'desc')
      .executeTakeFirst();
  },

  /** The versions the audit entries made (History's links). */
  byAuditIds(db: Db, auditIds: readonly string[]) {
    if (auditIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('record_versions')
      .select(['auditId', 'collection', 'documentId', 'number'])
      .where('auditId', 'in', [...auditIds])
      .execute();
  },

  /** The record's edit version now (undefined when it is gone or in the trash). */
  async liveRecordVersion(db: Db, collection: Table, documentId: string): Promise<number | undefined> {
    if (collection === 'maintenance') {
      const doc = await db.selectFrom('maintenance').select('version').where('id', '=', documentId).executeTakeFirst();
      return doc === undefined ? undefined : Number(doc.version);
    }
    const row = await db
      .selectFrom(collection as 'rice_local_pests')
      .select('version')
      .where('id', '=', documentId)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.version);
  },

  /**
   * The next `limit` records of a table after `afterId` (by id), and those of them that have no
   * version yet. Both tables are read as ranges of their indexes, side by side, rather than
   * joined: while a backfill fills the versions table, PostgreSQL's statistics still call it
   * empty, and the nested loop it then plans compares every record with every version.
   */
  async withoutVersion(
    db: Db,
    collection: Table,
    afterId: string,
    limit: number,
  ): Promise<{ lastId: string | null; rows: Array<Record<string, unknown>> }> {
    const table = collection as 'rice_local_pests';
    const ids = (await db.selectFrom(table).select('id').where('id', '>', afterId).orderBy('id').limit(limit).execute()).map((r) =>
      String(r.id),
    );
    if (ids.length === 0) return { lastId: null, rows: [] };
    const lastId = ids.length < limit ? null : ids[ids.length - 1]!;
    let versions = db
      .selectFrom('record_versions')
      .select('documentId')
      .distinct()
      .where('collection', '=', collection)
      .where('documentId', '>', afterId);
    if (lastId !== null) versions = versions.where('documentId', '<=', lastId);
    const versioned = new Set((await versions.execute()).map((r) => r.documentId));
    const rows: Array<Record<string, unknown>> = [];
    for (const part of chunks(ids.filter((id) => !versioned.has(id))))
      rows.push(...(await db.selectFrom(table).selectAll().where('id', 'in', part).orderBy('id').execute()));
    return { lastId, rows };
  },

  /** Records whose versions number more than `keep`, with the number below which they go. */
  overRetention(db: Db, keep: number) {
    return db
      .selectFrom('record_versions')
      .select(['collection', 'documentId', (eb) => eb.fn.max('number').as('last'), (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['collection', 'documentId'])
      .having((eb) => eb.fn.countAll(), '>', keep)
      .execute();
  },

  async deleteBelow(db: Db, collection: string, documentId: string, number: number): Promise<number> {
    const result = await db
      .deleteFrom('record_versions')
      .where('collection', '=', collection)
      .where('documentId', '=', documentId)
      .where('number', '<', number)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  snapshotsOf(db: Db, collection: string, documentId: string) {
    return db
      .selectFrom('record_versions')
      .select('snapshot')
      .where('collection', '=', collection)
      .where('documentId', '=', documentId)
      .execute();
  },
};
