import { sql, type CompiledQuery, type Kysely, type SqlBool } from 'kysely';
import { chunks, isPostgres } from '../../../db/dialect.js';
import type { Database } from '../../../db/types.js';
import type { Criteria } from './criteria.js';
import { actorKey, after, applyCriteria, bySeqs, newestFirst } from './repository/conditions.js';
import type { Cursor } from './cursor.js';

type Db = Kysely<Database>;

const LIST_COLUMNS = [
  'seq',
  'id',
  'timestamp',
  'userId',
  'actorId',
  'performedBy',
  'userName',
  'userEmail',
  'action',
  'collection',
  'documentId',
  'documentName',
  'name',
  'description',
] as const;

function listQuery(db: Db) {
  return db
    .selectFrom('audit_logs')
    .select([...LIST_COLUMNS])
    .select(sql<number>`case when "changes" is null then 0 else 1 end`.as('hasChanges'));
}

export type ListRow = Awaited<ReturnType<ReturnType<typeof listQuery>['execute']>>[number];

/**
 * A CSV row as read from the database: the fields already combined in SQL so each row is
 * small. `actor` is set only when no userName was recorded (older entries); `userEmail` only
 * when there are search words (it is checked against them, not written).
 */
export interface ExportRow {
  seq: number;
  timestamp: string;
  actor: string | null;
  userName: string | null;
  action: string;
  collection: string | null;
  document: string | null;
  description: string | null;
  userEmail: string | null;
}

function exportColumns(db: Db, c: Criteria) {
  return db.selectFrom('audit_logs').select([
    'seq',
    'timestamp',
    // As the list shows it: an empty userName counts as none.
    sql<string | null>`case when coalesce("userName", '') = '' then ${actorKey} end`.as('actor'),
    'userName',
    'action',
    'collection',
    sql<string | null>`coalesce("documentName", "name")`.as('document'),
    'description',
    (c.terms.length > 0 ? sql<string | null>`"userEmail"` : sql<string | null>`null`).as('userEmail'),
  ]);
}

function exportQuery(db: Db, c: Criteria, withText: boolean) {
  return applyCriteria(db, exportColumns(db, c), c, withText);
}

/**
 * The export's batches are compiled once with placeholders for the keyset position, which
 * positionedParams replaces by each batch's position.
 */
const AT_TIMESTAMP = '\u0000cursor-timestamp';
const AT_SEQ = -7_340_029;
const AT_POSITION: Cursor = { timestamp: AT_TIMESTAMP, seq: AT_SEQ };

/** The parameters of a compiled export query with its placeholders set to `position`. */
export function positionedParams(query: CompiledQuery, position: Cursor): unknown[] {
  return query.parameters.map((p) => (p === AT_TIMESTAMP ? position.timestamp : p === AT_SEQ ? position.seq : p));
}

/** The CSV export's statements, run on a connection of the export's own (server/db/batch-reader.ts). */
export const exportStatements = {
  /** The next `batchSize` CSV rows after a position, newest first. */
  batch(db: Db, c: Criteria, batchSize: number, withText: boolean): CompiledQuery<ExportRow> {
    return newestFirst(after(exportQuery(db, c, withText), AT_POSITION))
      .limit(batchSize)
      .compile();
  },

  /**
   * SQLite: the same batch, each row as [seq, packed]: its CSV fields packed by the database
   * into one text, NUL between fields, the user as userName or, for older entries without
   * one, U+0001 and the actor id. Reading one text instead of eight values takes about 40%
   * less time at a million rows (export-sqlite.ts unpacks it).
   */
  packedBatch(db: Db, c: Criteria, batchSize: number, withText: boolean): CompiledQuery {
    const email = c.terms.length > 0 ? sql` || char(0) || coalesce("userEmail", '')` : sql``;
    const packed = applyCriteria(
      db,
      db
        .selectFrom('audit_logs')
        .select([
          'seq',
          sql<string>`"timestamp" || char(0) || coalesce(nullif("userName", ''), char(1) || ${actorKey}, char(1)) || char(0) || "action" || char(0) || coalesce("collection", '') || char(0) || coalesce("documentName", "name", '') || char(0) || coalesce("description", '')${email}`.as(
            'packed',
          ),
        ]),
      c,
      withText,
    );
    return newestFirst(after(packed, AT_POSITION)).limit(batchSize).compile();
  },

  /** The CSV row of the seq of the position (a packed row that could not be unpacked). */
  one(db: Db, c: Criteria): CompiledQuery<ExportRow> {
    return exportColumns(db, c).where('seq', '=', AT_SEQ).compile();
  },
};

export const historyRepository = {
  /** Rows newest first after the cursor; `withText` false leaves the text to the caller. */
  page(db: Db, c: Criteria, cursor: Cursor | undefined, limit: number, withText = true): Promise<ListRow[]> {
    return newestFirst(after(applyCriteria(db, listQuery(db), c, withText), cursor))
      .limit(limit)
      .execute();
  },

  /**
   * SQLite: the entries an FTS5 query matches, when there are at most `cap` of them (else
   * null: the words are common and walking the list in order finds them faster).
   */
  async ftsCandidates(db: Db, match: string, cap: number): Promise<number[] | null> {
    // Counted first: common words then cost no rows (and no garbage) in JavaScript.
    const counted = await sql<{
      n: number;
    }>`select count(*) as n from (select 1 from audit_logs_fts where audit_logs_fts match ${match} limit ${cap + 1})`.execute(db);
    if (Number(counted.rows[0]?.n ?? 0) > cap) return null;
    const result = await sql<{
      seq: number;
    }>`select rowid as seq from audit_logs_fts where audit_logs_fts match ${match} order by rowid desc limit ${cap + 1}`.execute(db);
    return result.rows.length > cap ? null : result.rows.map((r) => Number(r.seq));
  },

  /**
   * SQLite: the next `limit` seqs an FTS5 query matches below `below`, highest first. FTS5
   * reads its lists lazily from the newest end, so this costs about as much as the rows it
   * passes over from there (a lower bound would not help: FTS5 reaches it by reading up to it).
   */
  async ftsNewest(db: Db, match: string, below: number, limit: number): Promise<number[]> {
    const result = await sql<{
      seq: number;
    }>`select rowid as seq from audit_logs_fts where audit_logs_fts match ${match} and rowid < ${below} order by rowid desc limit ${limit}`.execute(
      db,
    );
    return result.rows.map((r) => Number(r.seq));
  },

  /** The list rows of the given seqs that pass every filter but the text and come after the cursor. */
  rowsBySeqs(db: Db, c: Criteria, seqs: number[], cursor: Cursor | undefined): Promise<ListRow[]> {
    if (seqs.length === 0) return Promise.resolve([]);
    return bySeqs(db, listQuery(db), c, seqs, cursor).execute();
  },

  /**
   * Rows newer than `timestamp` (and after the cursor) whose seq is below `belowSeq`: the
   * entries written after older ones with a later time (imported entries), up to `limit`.
   */
  newerWithLowerSeq(
    db: Db,
    c: Criteria,
    timestamp: string,
    belowSeq: number,
    cursor: Cursor | undefined,
    limit: number,
  ): Promise<ListRow[]> {
    return (
      after(applyCriteria(db, listQuery(db), c, false), cursor)
        .where('timestamp', '>', timestamp)
        // '+seq': the range of timestamps is the short one; seq below a bound is nearly every row.
        .where(sql`+"seq"`, '<', belowSeq)
        .limit(limit)
        .execute()
    );
  },

  /**
   * SQLite, rare words: the candidates of the full-text index with the other filters, newest
   * first (`+timestamp` keeps the planner on the candidates instead of the time index).
   */
  pageBySeqs(db: Db, c: Criteria, seqs: number[], cursor: Cursor | undefined, limit: number): Promise<ListRow[]> {
    if (seqs.length === 0) return Promise.resolve([]);
    return bySeqs(db, listQuery(db), c, seqs, cursor)
      .orderBy(sql`+"timestamp"`, 'desc')
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
  },

  /** PostgreSQL: the planner's estimate of the entries with a word beginning with `term` (from the column statistics). */
  async estimateTermRows(db: Db, term: string): Promise<number> {
    const result = await sql<{
      'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }>;
    }>`explain (format json) select 1 from audit_logs where "search" @@ to_tsquery('simple', ${`${term}:*`})`.execute(db);
    const plan = result.rows[0]?.['QUERY PLAN'];
    const rows = Array.isArray(plan) ? Number(plan[0]?.Plan['Plan Rows']) : Number.NaN;
    return Number.isFinite(rows) ? rows : Number.MAX_SAFE_INTEGER;
  },

  /** Matches counted up to `cap` + 1 rows: cheap, and exact whenever the result is <= cap. */
  async countUpTo(db: Db, c: Criteria, cap: number, withText = true): Promise<number> {
    const inner = applyCriteria(db, db.selectFrom('audit_logs').select(sql<number>`1`.as('one')), c, withText).limit(cap + 1);
    const row = await db
      .selectFrom(inner.as('m'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The oldest timestamp in the table (one index lookup). */
  async oldestTimestamp(db: Db): Promise<string | null> {
    const row = await db.selectFrom('audit_logs').select('timestamp').orderBy('timestamp', 'asc').limit(1).executeTakeFirst();
    return row?.timestamp ?? null;
  },

  /** The timestamps of the newest and of the n-th newest match (1-based). */
  async newestAndNth(db: Db, c: Criteria, n: number, withText = true): Promise<{ newest: string | null; nth: string | null }> {
    const q = newestFirst(applyCriteria(db, db.selectFrom('audit_logs').select('timestamp'), c, withText));
    const newest = await q.limit(1).executeTakeFirst();
    const nth = await q
      .offset(n - 1)
      .limit(1)
      .executeTakeFirst();
    return { newest: newest?.timestamp ?? null, nth: nth?.timestamp ?? null };
  },

  /** Up to `limit` rows for a count or a sample: the same filters and order as the list. */
  newestRows(db: Db, c: Criteria, limit: number, withText = true): Promise<ExportRow[]> {
    return newestFirst(exportQuery(db, c, withText))
      .limit(limit)
      .execute();
  },

  /** SQLite, rare words: every candidate with the other filters, newest first, as CSV rows. */
  async exportRowsBySeqs(db: Db, c: Criteria, seqs: number[]): Promise<ExportRow[]> {
    if (seqs.length === 0) return [];
    return bySeqs(db, exportColumns(db, c), c, seqs)
      .orderBy(sql`+"timestamp"`, 'desc')
      .orderBy('seq', 'desc')
      .execute();
  },

  findById(db: Db, id: string, c: Criteria) {
    return applyCriteria(db, db.selectFrom('audit_logs').selectAll().where('id', '=', id), c).executeTakeFirst();
  },

  /** Current names of the given accounts (for entries that name the user only by id). */
  async accountNames(db: Db, ids: string[]): Promise<Map<string, { fullname: string; email: string | null }>> {
    const map = new Map<string, { fullname: string; email: string | null }>();
    for (const chunk of chunks(ids)) {
      // One statement text for any number of ids (see bySeqs in criteria.ts).
      const listed = isPostgres(db)
        ? sql<SqlBool>`"id" = any(${chunk})`
        : sql<SqlBool>`"id" in (select value from json_each(${JSON.stringify(chunk)}))`;
      const rows = await db.selectFrom('accounts').select(['id', 'fullname', 'email']).where(listed).execute();
      for (const r of rows) map.set(r.id, { fullname: r.fullname, email: r.email });
    }
    return map;
  },

  /** The people a super admin can filter by: every account, deleted ones included. */
  listAccounts(db: Db) {
    return db.selectFrom('accounts').select(['id', 'fullname', 'username', 'isDeleted']).orderBy('fullname').execute();
  },
};
