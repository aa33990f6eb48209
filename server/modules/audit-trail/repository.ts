import { sql, type Kysely, type Transaction } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import type { AuditVerificationsTable, Database } from '../../db/types.js';
import { CHAINED_FIELDS, type ChainedContent } from '../../platform/audit-hash.js';

type Db = Kysely<Database> | Transaction<Database>;

/** One audit entry as the chain sees it: its place, links and hashed content. */
export type ChainRow = ChainedContent & { seq: number; chainIndex: number | null; prevHash: string | null; hash: string | null };

export interface ChainHead { lastIndex: number; lastHash: string; baseIndex: number; baseHash: string; dailyAt: string | null }

const CHAIN_COLUMNS = ['seq', 'chainIndex', 'prevHash', 'hash', ...CHAINED_FIELDS] as const;
const CANONICAL = sql.raw(`json_array(seq, ${CHAINED_FIELDS.map((f) => `"${f}"`).join(', ')})`);

/** An entry as a canonical read gives it: its hashed content already as canonical JSON. */
export interface CanonicalRow { seq: number; chainIndex: number; prevHash: string | null; hash: string | null; id: string; canonical: string }

/** Queries of the audit trail's integrity work: the chain in order, its head, verifications. */
export const auditTrailRepository = {
  async head(db: Db): Promise<ChainHead> {
    return db.selectFrom('audit_chain').select(['lastIndex', 'lastHash', 'baseIndex', 'baseHash', 'dailyAt']).where('id', '=', 1).executeTakeFirstOrThrow();
  },

  /** Entries after `afterIndex` in chain order; rows outside the chain (no index) are not read. */
  async chainBatch(db: Db, afterIndex: number, limit: number, upToIndex?: number): Promise<ChainRow[]> {
    let q = db.selectFrom('audit_logs').select(CHAIN_COLUMNS).where('chainIndex', '>', afterIndex);
    if (upToIndex !== undefined) q = q.where('chainIndex', '<=', upToIndex);
    const rows = await q.orderBy('chainIndex').limit(limit).execute();
    if (isPostgres(db)) for (const r of rows) r.seq = Number(r.seq);
    return rows as ChainRow[];
  },

  /**
   * SQLite only (null on PostgreSQL): chainBatch with the hashed content made by the database
   * as a JSON array (json_array), the same text as canonicalEntry for all but unusual characters,
   * read and checked with a fraction of the work per entry. A caller re-reads an entry whose hash
   * does not match with `entryAt` and checks it exactly before calling it changed.
   */
  async canonicalBatch(db: Db, afterIndex: number, limit: number): Promise<CanonicalRow[] | null> {
    if (isPostgres(db)) return null;
    const { rows } = await sql<CanonicalRow>`
      select seq, "chainIndex", "prevHash", hash, id, ${CANONICAL} as canonical from audit_logs
      where "chainIndex" > ${afterIndex} order by "chainIndex" limit ${limit}`.execute(db);
    return rows;
  },

  async entryAt(db: Db, index: number): Promise<ChainRow | undefined> {
    const row = await db.selectFrom('audit_logs').select(CHAIN_COLUMNS).where('chainIndex', '=', index).executeTakeFirst();
    if (row) row.seq = Number(row.seq);
    return row as ChainRow | undefined;
  },

  async chainedCount(db: Db): Promise<number> {
    const row = await db.selectFrom('audit_logs').select((eb) => eb.fn.countAll<string | number>().as('n')).where('chainIndex', 'is not', null).executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async hashAt(db: Db, index: number): Promise<string | null> {
    const row = await db.selectFrom('audit_logs').select('hash').where('chainIndex', '=', index).executeTakeFirst();
    return row?.hash ?? null;
  },

  /** The first chain position (after the base) whose entry is not older than `cutoff`, or null. */
  async firstIndexFrom(db: Db, afterIndex: number, cutoffIso: string): Promise<number | null> {
    const row = await db.selectFrom('audit_logs').select((eb) => eb.fn.min('chainIndex').as('i'))
      .where('chainIndex', '>', afterIndex).where('timestamp', '>=', cutoffIso).executeTakeFirstOrThrow();
    return row.i === null || row.i === undefined ? null : Number(row.i);
  },

  /** Removes archived entries up to `throughIndex` and moves the chain's base there, in the caller's transaction. */
  async removeThrough(trx: Transaction<Database>, afterIndex: number, throughIndex: number, throughHash: string): Promise<number> {
    const result = await trx.deleteFrom('audit_logs').where('chainIndex', '>', afterIndex).where('chainIndex', '<=', throughIndex).executeTakeFirst();
    await trx.updateTable('audit_chain').set({ baseIndex: throughIndex, baseHash: throughHash }).where('id', '=', 1).execute();
    return Number(result.numDeletedRows);
  },

  /** Claims the daily run for this instance: true for exactly one instance per period. */
  async claimDaily(db: Db, nowIso: string, dueBeforeIso: string): Promise<boolean> {
    const result = await db.updateTable('audit_chain').set({ dailyAt: nowIso }).where('id', '=', 1)
      .where((eb) => eb.or([eb('dailyAt', 'is', null), eb('dailyAt', '<', dueBeforeIso)])).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async insertVerification(db: Db, row: AuditVerificationsTable): Promise<void> {
    await db.insertInto('audit_verifications').values(row).execute();
  },

  async updateVerification(db: Db, id: string, patch: Partial<Omit<AuditVerificationsTable, 'id'>>): Promise<void> {
    await db.updateTable('audit_verifications').set(patch).where('id', '=', id).execute();
  },

  async lastVerification(db: Db): Promise<AuditVerificationsTable | undefined> {
    return db.selectFrom('audit_verifications').selectAll().orderBy('startedAt', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  },

  async runningVerification(db: Db, freshAfterIso: string): Promise<AuditVerificationsTable | undefined> {
    return db.selectFrom('audit_verifications').selectAll().where('status', '=', 'running').where('startedAt', '>', freshAfterIso)
      .orderBy('startedAt', 'desc').limit(1).executeTakeFirst();
  },

};

/** The super admins an anchor is emailed to: active accounts with an address. */
export async function superAdminEmails(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('accounts').select('email').where('role', '=', 'SYSTEM_ADMIN').where('isDeleted', '=', 0)
    .where('isRestricted', '=', 0).where('email', 'is not', null).execute();
  return rows.map((r) => r.email!).filter((e) => e.includes('@'));
}
