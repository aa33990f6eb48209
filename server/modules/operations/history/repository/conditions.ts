import { sql, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { SECURITY_ACTIONS } from '../../../../../common/permissions.js';
import { isPostgres } from '../../../../db/dialect.js';
import type { Database } from '../../../../db/types.js';
import { ftsMatch, type Criteria } from '../criteria.js';
import type { Cursor } from '../cursor.js';

/*
 * The filters, the role's scope and the search words (criteria.ts) as conditions of an
 * audit_logs query, and the list's order and keyset: the parts every query of repository.ts shares.
 */

/**
 * The actor of an entry: userId, else actorId / performedBy (older entries). The expression
 * is written exactly as in migration 040's index so both engines use that index.
 */
export const actorKey = sql<string | null>`coalesce("userId", "actorId", "performedBy")`;

type Db = Kysely<Database>;

/** Sorts after every ISO-8601 timestamp and before text that is not a date. */
const LAST_DATE = '9999-12-31T23:59:59.999Z~';
type AuditQuery<O> = SelectQueryBuilder<Database, 'audit_logs', O>;

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

export function after<O>(query: AuditQuery<O>, cursor: Cursor | undefined, indexed = true): AuditQuery<O> {
  if (!cursor) return query;
  return query.where(
    indexed
      ? sql<SqlBool>`("timestamp", "seq") < (${cursor.timestamp}, ${cursor.seq})`
      : sql<SqlBool>`(+"timestamp", +"seq") < (${cursor.timestamp}, ${cursor.seq})`,
  );
}

/**
 * SQLite: the given seqs, looked up by seq, that pass every filter but the text and follow the
 * cursor. The seqs go as one JSON parameter, so the statement's text is the same whatever
 * their number: prepared statements are kept by their text (server/db/connection.ts), and an
 * IN list of thousands of parameters would leave a large statement behind for every length.
 */
export function bySeqs<O>(db: Db, query: AuditQuery<O>, c: Criteria, seqs: number[], cursor?: Cursor): AuditQuery<O> {
  const listed = query.where(sql<SqlBool>`"seq" in (select value from json_each(${JSON.stringify(seqs)}))`);
  return after(applyCriteria(db, listed, c, false, false), cursor, false);
}

export function newestFirst<O>(query: AuditQuery<O>): AuditQuery<O> {
  return query.orderBy('timestamp', 'desc').orderBy('seq', 'desc');
}
