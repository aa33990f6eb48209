import { sql, type Kysely, type Transaction } from 'kysely';
import { isPostgres } from '../../../db/dialect.js';
import type { Database } from '../../../db/types.js';
import type { AuditVerificationsTable } from '../../../db/types/audit.js';
import { CHAINED_FIELDS, type ChainedContent } from '../../../platform/writes/audit-hash.js';

type Db = Kysely<Database> | Transaction<Database>;

/** One audit entry as the chain sees it: its place, links and hashed content. */
export type ChainRow = ChainedContent & { seq: number; chainIndex: number; prevHash: string; hash: string };

export interface ChainHead {
  lastIndex: number;
  lastHash: string;
  baseIndex: number;
  baseHash: string;
}

const CANONICAL = sql.raw(`json_array(a.seq, ${CHAINED_FIELDS.map((f) => `a."${f}"`).join(', ')})`);

/** An entry as a canonical read gives it: its hashed content already as canonical JSON. */
export interface CanonicalRow {
  seq: number;
  chainIndex: number;
  prevHash: string | null;
  hash: string | null;
  id: string;
  canonical: string;
}

/** Links in chain order joined with their entries; a link whose entry is gone is left out (a gap). */
function linked(db: Db) {
  return db
    .selectFrom('audit_chain_links as l')
    .innerJoin('audit_logs as a', 'a.seq', 'l.seq')
    .select(['l.chainIndex', 'l.seq', 'l.prevHash', 'l.hash', ...CHAINED_FIELDS.map((f) => `a.${f}` as const)]);
}

const toChainRow = (r: Record<string, unknown>): ChainRow => ({ ...(r as ChainRow), seq: Number(r.seq), chainIndex: Number(r.chainIndex) });

/** Queries of the audit trail's integrity work: the chain in order, its head, verifications. */
export const auditTrailRepository = {
  async head(db: Db): Promise<ChainHead> {
    return db
      .selectFrom('audit_chain')
      .select(['lastIndex', 'lastHash', 'baseIndex', 'baseHash'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
  },

  /** Entries after `afterIndex` in chain order (and up to `upToIndex`). */
  async chainBatch(db: Db, afterIndex: number, limit: number, upToIndex?: number): Promise<ChainRow[]> {
    let q = linked(db).where('l.chainIndex', '>', afterIndex);
    if (upToIndex !== undefined) q = q.where('l.chainIndex', '<=', upToIndex);
    return (await q.orderBy('l.chainIndex').limit(limit).execute()).map(toChainRow);
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
      select l."chainIndex", l.seq, l."prevHash", l.hash, a.id, ${CANONICAL} as canonical
      from audit_chain_links l join audit_logs a on a.seq = l.seq
      where l."chainIndex" > ${afterIndex} order by l."chainIndex" limit ${limit}`.execute(db);
    return rows;
  },

  async entryAt(db: Db, index: number): Promise<ChainRow | undefined> {
    const row = await linked(db).where('l.chainIndex', '=', index).executeTakeFirst();
    return row ? toChainRow(row) : undefined;
  },

  /** Entries that have a place in the chain now (after the base). */
  async chainedCount(db: Db): Promise<number> {
    const row = await db
      .selectFrom('audit_chain_links')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /**
   * Entries in the table that are neither chained nor waiting to be: written around the
   * console. Three counts, read in the caller's snapshot (inSnapshot, db/dialect.ts: a write
   * committing meanwhile cannot skew them); the first such entry is looked for only when they disagree.
   */
  async outsideChain(trx: Transaction<Database>): Promise<{ count: number; firstId: string | null }> {
    let count = 0;
    for (const [t, sign] of [
      ['audit_logs', 1],
      ['audit_chain_links', -1],
      ['audit_pending', -1],
    ] as const) {
      count +=
        sign *
        Number(
          (
            await trx
              .selectFrom(t)
              .select((eb) => eb.fn.countAll<string | number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
    }
    if (count <= 0) return { count: 0, firstId: null };
    const first = await trx
      .selectFrom('audit_logs as a')
      .select('a.id')
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('audit_chain_links as l').select('l.seq').whereRef('l.seq', '=', 'a.seq'))),
      )
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('audit_pending as p').select('p.seq').whereRef('p.seq', '=', 'a.seq'))))
      .orderBy('a.seq')
      .limit(1)
      .executeTakeFirst();
    return first ? { count, firstId: first.id } : { count: 0, firstId: null };
  },

  async hashAt(db: Db, index: number): Promise<string | null> {
    const row = await db.selectFrom('audit_chain_links').select('hash').where('chainIndex', '=', index).executeTakeFirst();
    return row?.hash ?? null;
  },

  /** The first chain position (after the base) whose entry is not older than `cutoff`, or null. */
  async firstIndexFrom(db: Db, afterIndex: number, cutoffIso: string): Promise<number | null> {
    const row = await db
      .selectFrom('audit_chain_links as l')
      .innerJoin('audit_logs as a', 'a.seq', 'l.seq')
      .select((eb) => eb.fn.min('l.chainIndex').as('i'))
      .where('l.chainIndex', '>', afterIndex)
      .where('a.timestamp', '>=', cutoffIso)
      .executeTakeFirstOrThrow();
    return row.i === null || row.i === undefined ? null : Number(row.i);
  },

  /** Removes archived entries up to `throughIndex` and moves the chain's base there, in the caller's transaction. */
  async removeThrough(trx: Transaction<Database>, afterIndex: number, throughIndex: number, throughHash: string): Promise<number> {
    const range = trx
      .selectFrom('audit_chain_links')
      .select('seq')
      .where('chainIndex', '>', afterIndex)
      .where('chainIndex', '<=', throughIndex);
    const result = await trx.deleteFrom('audit_logs').where('seq', 'in', range).executeTakeFirst();
    await trx.deleteFrom('audit_chain_links').where('chainIndex', '>', afterIndex).where('chainIndex', '<=', throughIndex).execute();
    await trx.updateTable('audit_chain').set({ baseIndex: throughIndex, baseHash: throughHash }).where('id', '=', 1).execute();
    return Number(result.numDeletedRows);
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
    return db
      .selectFrom('audit_verifications')
      .selectAll()
      .where('status', '=', 'running')
      .where('startedAt', '>', freshAfterIso)
      .orderBy('startedAt', 'desc')
      .limit(1)
      .executeTakeFirst();
  },
};

/** The super admins an anchor is emailed to: active accounts with an address. */
export async function superAdminEmails(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('accounts')
    .select('email')
    .where('role', '=', 'SYSTEM_ADMIN')
    .where('isDeleted', '=', 0)
    .where('isRestricted', '=', 0)
    .where('email', 'is not', null)
    .execute();
  return rows.map((r) => r.email!).filter((e) => e.includes('@'));
}
