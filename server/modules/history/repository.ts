import SQLite from 'better-sqlite3';
import pg from 'pg';
import { sql, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { SECURITY_ACTIONS } from '../../../common/permissions.js';
import type { TimeBounds } from '../../../common/history.js';
import { sqlitePath } from '../../db/connection.js';
import { isPostgres } from '../../db/dialect.js';
import type { Database } from '../../db/types.js';

/**
 * The actor of an entry: userId, else actorId / performedBy (older entries). The expression
 * is written exactly as in migration 040's index so both engines use that index.
 */
export const actorKey = sql<string | null>`coalesce("userId", "actorId", "performedBy")`;

/** What one history query selects: the filters and the role's scope, already checked. */
export interface Criteria {
  bounds: TimeBounds;
  action?: string | undefined;
  collection?: string | undefined;
  user?: string | undefined;
  /** Words of the free-text search (letters and digits, folded); each matches a word prefix. */
  terms: string[];
  /** An ADMIN sees only entries they performed ... */
  ownerId?: string | undefined;
  /** ... and never LOGIN, RESTRICT, UNRESTRICT. */
  hideSecurityActions: boolean;
  /**
   * PostgreSQL, two words or more: the word whose entries the GIN index should list (the
   * rarest); the others are checked on those rows. Unset: the whole query goes to the index.
   */
  indexTerm?: string | undefined;
}

/** Position of the last row of a page: rows strictly older come next. */
export interface Cursor {
  timestamp: string;
  seq: number;
}

export const LIST_COLUMNS = [
  'seq', 'id', 'timestamp', 'userId', 'actorId', 'performedBy', 'userName', 'userEmail',
  'action', 'collection', 'documentId', 'documentName', 'name', 'description',
] as const;

type Db = Kysely<Database>;

/** Sorts after every ISO-8601 timestamp and before text that is not a date. */
const LAST_DATE = '9999-12-31T23:59:59.999Z~';
type AuditQuery<O> = SelectQueryBuilder<Database, 'audit_logs', O>;

/** The FTS5 query of SQLite: every word as a prefix (the index folds case and accents). */
export function ftsMatch(terms: string[]): string {
  return terms.map((t) => `"${t}"*`).join(' ');
}

/** Longest prefix FTS5 keeps its own index of (migration 041): such prefixes are read lazily. */
export const FTS_PREFIX_MAX = 4;

/**
 * The FTS5 query that the prefix indexes answer lazily: every word cut to its first 4
 * characters. It finds every entry the search words find, and some more when a word is longer
 * (the caller checks the full words).
 */
export function ftsPrefixMatch(terms: string[]): string {
  return ftsMatch([...new Set(terms.map((t) => t.slice(0, FTS_PREFIX_MAX)))]);
}

/**
 * The text condition done by the database: tsvector on PostgreSQL, FTS5 on SQLite. On
 * PostgreSQL a GIN index lists every entry of a prefix before it can intersect ('nsic:*' is
 * 300,000 entries at a million, 30 to 80 ms); with an index term, the index lists only that
 * (rare) word and the full query is checked on its rows (ts_match_vq is @@ written so that
 * the planner does not hand it to the index as well).
 */
function textMatch(db: Db, terms: string[], indexTerm?: string): Expression<SqlBool> {
  if (isPostgres(db)) {
    const all = terms.map((t) => `${t}:*`).join(' & ');
    if (indexTerm && terms.length > 1) {
      return sql<SqlBool>`("search" @@ to_tsquery('simple', ${`${indexTerm}:*`}) and ts_match_vq("search", to_tsquery('simple', ${all})))`;
    }
    return sql<SqlBool>`"search" @@ to_tsquery('simple', ${all})`;
  }
  return sql<SqlBool>`"seq" in (select rowid from audit_logs_fts where audit_logs_fts match ${ftsMatch(terms)})`;
}

/**
 * Every filter but the text; `withText` adds the database's own full-text condition.
 * `indexed` false (SQLite, rows fetched by seq) writes each column as +"column", which no
 * index serves: without statistics the planner would otherwise walk the whole index of, say,
 * one user's entries instead of looking up the few seqs.
 */
export function applyCriteria<O>(db: Db, query: AuditQuery<O>, c: Criteria, withText = true, indexed = true): AuditQuery<O> {
  const col = (name: 'timestamp' | 'action' | 'collection') => (indexed ? sql.ref(name) : sql`+${sql.ref(name)}`);
  const actor = indexed ? actorKey : sql`+${actorKey}`;
  let q = query;
  if (c.bounds.from) q = q.where(col('timestamp'), '>=', c.bounds.from);
  // A date range never matches an entry whose timestamp is not a date (imported text).
  if (c.bounds.before || c.bounds.from) q = q.where(col('timestamp'), '<', c.bounds.before ?? LAST_DATE);
  if (c.action) q = q.where(col('action'), '=', c.action);
  if (c.collection) q = q.where(col('collection'), '=', c.collection);
  if (c.user) q = q.where(sql<SqlBool>`${actor} = ${c.user}`);
  if (c.ownerId) q = q.where(sql<SqlBool>`${actor} = ${c.ownerId}`);
  if (c.hideSecurityActions) q = q.where(col('action'), 'not in', [...SECURITY_ACTIONS]);
  if (withText && c.terms.length > 0) q = q.where(textMatch(db, c.terms, c.indexTerm));
  return q;
}

function after<O>(query: AuditQuery<O>, cursor: Cursor | undefined, indexed = true): AuditQuery<O> {
  if (!cursor) return query;
  return query.where(indexed
    ? sql<SqlBool>`("timestamp", "seq") < (${cursor.timestamp}, ${cursor.seq})`
    : sql<SqlBool>`(+"timestamp", +"seq") < (${cursor.timestamp}, ${cursor.seq})`);
}

/**
 * SQLite: the given seqs, looked up by seq, that pass every filter but the text and follow the
 * cursor. The seqs go as one JSON parameter, so the statement's text is the same whatever
 * their number: prepared statements are kept by their text (server/db/connection.ts), and an
 * IN list of thousands of parameters would leave a large statement behind for every length.
 */
function bySeqs<O>(db: Db, query: AuditQuery<O>, c: Criteria, seqs: number[], cursor?: Cursor): AuditQuery<O> {
  const listed = query.where(sql<SqlBool>`"seq" in (select value from json_each(${JSON.stringify(seqs)}))`);
  return after(applyCriteria(db, listed, c, false, false), cursor, false);
}

function newestFirst<O>(query: AuditQuery<O>): AuditQuery<O> {
  return query.orderBy('timestamp', 'desc').orderBy('seq', 'desc');
}

function listQuery(db: Db) {
  return db.selectFrom('audit_logs').select([...LIST_COLUMNS])
    .select(sql<number>`case when "changes" is null then 0 else 1 end`.as('hasChanges'));
}

export type ListRow = Awaited<ReturnType<ReturnType<typeof listQuery>['execute']>>[number];

/**
 * A CSV row as read from the database: the fields already combined in SQL so each row is
 * small. `actor` is set only when no userName was recorded (older entries).
 */
export type ExportRow = [seq: number, timestamp: string, actor: string | null, userName: string | null, action: string,
  collection: string | null, document: string | null, description: string | null, userEmail: string | null];

/** The position of each field in an ExportRow: read rows as row[F.userName], never row[3]. */
export const F = { seq: 0, timestamp: 1, actor: 2, userName: 3, action: 4, collection: 5, document: 6, description: 7, userEmail: 8 } as const;

function exportColumns(db: Db, c: Criteria) {
  return db.selectFrom('audit_logs').select([
    'seq', 'timestamp',
    // As the list shows it: an empty userName counts as none.
    sql<string | null>`case when coalesce("userName", '') = '' then ${actorKey} end`.as('actor'),
    'userName', 'action', 'collection',
    sql<string | null>`coalesce("documentName", "name")`.as('document'),
    'description',
    // Needed only to check search words against the e-mail address.
    (c.terms.length > 0 ? sql<string | null>`"userEmail"` : sql<string | null>`null`).as('userEmail'),
  ]);
}

function exportQuery(db: Db, c: Criteria, withText: boolean) {
  return applyCriteria(db, exportColumns(db, c), c, withText);
}

const toTuple = (r: { seq: number; timestamp: string; actor: string | null; userName: string | null; action: string; collection: string | null; document: string | null; description: string | null; userEmail: string | null }): ExportRow =>
  [Number(r.seq), r.timestamp, r.actor, r.userName, r.action, r.collection, r.document, r.description, r.userEmail];

const CURSOR_TS = '\u0000cursor-timestamp';
const CURSOR_SEQ = -7_340_029;

/**
 * SQLite export: the CSV fields of a row packed by the database into one text, NUL between
 * fields, the user as userName or, for older entries without one, U+0001 and the actor id.
 * Reading one text instead of eight values takes about 40% less time at a million rows.
 */
function packedExportQuery(db: Db, c: Criteria, withText: boolean) {
  const email = c.terms.length > 0 ? sql` || char(0) || coalesce("userEmail", '')` : sql``;
  return applyCriteria(db, db.selectFrom('audit_logs').select([
    'seq',
    sql<string>`"timestamp" || char(0) || coalesce(nullif("userName", ''), char(1) || ${actorKey}, char(1)) || char(0) || "action" || char(0) || coalesce("collection", '') || char(0) || coalesce("documentName", "name", '') || char(0) || coalesce("description", '')${email}`.as('packed'),
  ]), c, withText);
}

/** An export row from its packed text; null when a field itself holds a NUL (then read unpacked). */
function unpack(seq: number, packed: string, withEmail: boolean): ExportRow | null {
  const f = packed.split('\u0000');
  if (f.length !== (withEmail ? 7 : 6)) return null;
  const user = f[1]!;
  const older = user.charCodeAt(0) === 1;
  return [seq, f[0]!, older ? user.slice(1) || null : null, older ? null : user, f[2]!, f[3]!, f[4]!, f[5]!, withEmail ? f[6]! : null];
}

/**
 * Batches of the export, newest first by (timestamp, seq), until the end; every batch is
 * one keyset query, so nothing holds a transaction open while a slow client downloads.
 * On SQLite the batches run as one prepared statement on a read-only connection of the
 * export's own, each row's fields packed into one text (see packedExportQuery). On
 * PostgreSQL they run through the pool.
 */
/** Each batch array may be emptied by the consumer once it has used the rows. */
export async function* exportBatches(db: Db, config: { dataDir: string; databaseUrl?: string | undefined }, c: Criteria, batchSize: number, withText = true): AsyncGenerator<ExportRow[]> {
  let cursor: Cursor = { timestamp: '\uffff', seq: Number.MAX_SAFE_INTEGER };
  if (isPostgres(db)) {
    // The same keyset batches on a connection of the export's own, rows as arrays (pg builds
    // no object per row); each batch is its own statement, so no transaction stays open.
    const compiled = newestFirst(after(exportQuery(db, c, withText), { timestamp: CURSOR_TS, seq: CURSOR_SEQ })).limit(batchSize).compile();
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      for (;;) {
        const values = compiled.parameters.map((p) => (p === CURSOR_TS ? cursor.timestamp : p === CURSOR_SEQ ? cursor.seq : p));
        const rows = (await client.query<ExportRow>({ text: compiled.sql, values, rowMode: 'array' })).rows;
        // The position is taken before the batch goes out: the consumer empties the array.
        const full = rows.length === batchSize;
        if (full) cursor = { timestamp: rows[batchSize - 1]![1], seq: Number(rows[batchSize - 1]![0]) };
        if (rows.length > 0) yield rows;
        if (!full) return;
      }
    } finally {
      await client.end();
    }
  }
  const compiled = newestFirst(after(packedExportQuery(db, c, withText), { timestamp: CURSOR_TS, seq: CURSOR_SEQ })).limit(batchSize).compile();
  const one = exportColumns(db, c).where('seq', '=', CURSOR_SEQ).compile();
  const withEmail = c.terms.length > 0;
  const reader = new SQLite(sqlitePath(config.dataDir), { readonly: true, fileMustExist: true });
  try {
    const statement = reader.prepare(compiled.sql).raw(true);
    const unpacked = reader.prepare(one.sql).raw(true);
    for (;;) {
      const params = compiled.parameters.map((p) => (p === CURSOR_TS ? cursor.timestamp : p === CURSOR_SEQ ? cursor.seq : p));
      const packed = statement.all(...params) as Array<[number, string]>;
      const rows: ExportRow[] = new Array(packed.length);
      for (let i = 0; i < packed.length; i++) {
        const [seq, text] = packed[i]!;
        rows[i] = unpack(seq, text, withEmail)
          ?? (unpacked.get(...one.parameters.map((p) => (p === CURSOR_SEQ ? seq : p))) as ExportRow);
      }
      // Nothing of the batch stays referenced here while it is being written (see exportCsv).
      packed.length = 0;
      const full = rows.length === batchSize;
      if (full) cursor = { timestamp: rows[batchSize - 1]![1], seq: rows[batchSize - 1]![0] };
      if (rows.length > 0) yield rows;
      if (!full) return;
    }
  } finally {
    reader.close();
  }
}

export const historyRepository = {
  /** Rows newest first after the cursor; `withText` false leaves the text to the caller. */
  page(db: Db, c: Criteria, cursor: Cursor | undefined, limit: number, withText = true): Promise<ListRow[]> {
    return newestFirst(after(applyCriteria(db, listQuery(db), c, withText), cursor)).limit(limit).execute();
  },

  /**
   * SQLite: the entries an FTS5 query matches, when there are at most `cap` of them (else
   * null: the words are common and walking the list in order finds them faster).
   */
  async ftsCandidates(db: Db, match: string, cap: number): Promise<number[] | null> {
    // Counted first: common words then cost no rows (and no garbage) in JavaScript.
    const counted = await sql<{ n: number }>`select count(*) as n from (select 1 from audit_logs_fts where audit_logs_fts match ${match} limit ${cap + 1})`.execute(db);
    if (Number(counted.rows[0]?.n ?? 0) > cap) return null;
    const result = await sql<{ seq: number }>`select rowid as seq from audit_logs_fts where audit_logs_fts match ${match} order by rowid desc limit ${cap + 1}`.execute(db);
    return result.rows.length > cap ? null : result.rows.map((r) => Number(r.seq));
  },

  /**
   * SQLite: the next `limit` seqs an FTS5 query matches below `below`, highest first. FTS5
   * reads its lists lazily from the newest end, so this costs about as much as the rows it
   * passes over from there (a lower bound would not help: FTS5 reaches it by reading up to it).
   */
  async ftsNewest(db: Db, match: string, below: number, limit: number): Promise<number[]> {
    const result = await sql<{ seq: number }>`select rowid as seq from audit_logs_fts where audit_logs_fts match ${match} and rowid < ${below} order by rowid desc limit ${limit}`.execute(db);
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
  newerWithLowerSeq(db: Db, c: Criteria, timestamp: string, belowSeq: number, cursor: Cursor | undefined, limit: number): Promise<ListRow[]> {
    return after(applyCriteria(db, listQuery(db), c, false), cursor)
      .where('timestamp', '>', timestamp)
      // '+seq': the range of timestamps is the short one; seq below a bound is nearly every row.
      .where(sql`+"seq"`, '<', belowSeq).limit(limit).execute();
  },

  /**
   * SQLite, rare words: the candidates of the full-text index with the other filters, newest
   * first (`+timestamp` keeps the planner on the candidates instead of the time index).
   */
  pageBySeqs(db: Db, c: Criteria, seqs: number[], cursor: Cursor | undefined, limit: number): Promise<ListRow[]> {
    if (seqs.length === 0) return Promise.resolve([]);
    return bySeqs(db, listQuery(db), c, seqs, cursor)
      .orderBy(sql`+"timestamp"`, 'desc').orderBy('seq', 'desc').limit(limit).execute();
  },

  /** PostgreSQL: the planner's estimate of the entries with a word beginning with `term` (from the column statistics). */
  async estimateTermRows(db: Db, term: string): Promise<number> {
    const result = await sql<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>`explain (format json) select 1 from audit_logs where "search" @@ to_tsquery('simple', ${`${term}:*`})`.execute(db);
    const plan = result.rows[0]?.['QUERY PLAN'];
    const rows = Array.isArray(plan) ? Number(plan[0]?.Plan['Plan Rows']) : Number.NaN;
    return Number.isFinite(rows) ? rows : Number.MAX_SAFE_INTEGER;
  },

  /** Matches counted up to `cap` + 1 rows: cheap, and exact whenever the result is <= cap. */
  async countUpTo(db: Db, c: Criteria, cap: number, withText = true): Promise<number> {
    const inner = applyCriteria(db, db.selectFrom('audit_logs').select(sql<number>`1`.as('one')), c, withText).limit(cap + 1);
    const row = await db.selectFrom(inner.as('m')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
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
    const nth = await q.offset(n - 1).limit(1).executeTakeFirst();
    return { newest: newest?.timestamp ?? null, nth: nth?.timestamp ?? null };
  },

  /** Up to `limit` rows for a count or a sample: the same filters and order as the list. */
  newestRows(db: Db, c: Criteria, limit: number, withText = true): Promise<ExportRow[]> {
    return newestFirst(exportQuery(db, c, withText)).limit(limit).execute().then((rows) => rows.map(toTuple));
  },

  /** SQLite, rare words: every candidate with the other filters, newest first, as CSV rows. */
  async exportRowsBySeqs(db: Db, c: Criteria, seqs: number[]): Promise<ExportRow[]> {
    if (seqs.length === 0) return [];
    const rows = await bySeqs(db, exportColumns(db, c), c, seqs).orderBy(sql`+"timestamp"`, 'desc').orderBy('seq', 'desc').execute();
    return rows.map(toTuple);
  },

  findById(db: Db, id: string, c: Criteria) {
    return applyCriteria(db, db.selectFrom('audit_logs').selectAll().where('id', '=', id), c).executeTakeFirst();
  },

  /** Current names of the given accounts (for entries that name the user only by id). */
  async accountNames(db: Db, ids: string[]): Promise<Map<string, { fullname: string; email: string | null }>> {
    const map = new Map<string, { fullname: string; email: string | null }>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      // One statement text for any number of ids (see bySeqs).
      const listed = isPostgres(db) ? sql<SqlBool>`"id" = any(${chunk})` : sql<SqlBool>`"id" in (select value from json_each(${JSON.stringify(chunk)}))`;
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
