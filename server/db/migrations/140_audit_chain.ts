import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';
import { CHAINED_FIELDS, entryHash, GENESIS_HASH } from '../../platform/audit-hash.js';

/**
 * Tamper-evident audit trail, kept beside audit_logs so entries are never updated:
 * - audit_chain_links: each entry's place in the chain (chainIndex 1, 2, 3… without gaps), its
 *   seq, the previous entry's hash and its own (platform/audit-hash.ts);
 * - audit_pending: entries written and not chained yet (the sealer's work list);
 * - audit_chain: one row, the head (last index and hash), locked by the sealer so instances
 *   seal one after another, and the base (the last entry moved to an archive by retention);
 * - audit_verifications: results of `Verify now` and the daily check.
 * Existing entries are chained in seq order.
 */
const BATCH = 2000;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.createTable('audit_chain_links')
    .addColumn('chainIndex', 'integer', (c) => c.primaryKey())
    .addColumn('seq', pg ? 'bigint' : 'integer', (c) => c.notNull().unique())
    .addColumn('prevHash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createTable('audit_pending')
    .addColumn('seq', pg ? 'bigint' : 'integer', (c) => c.primaryKey())
    .execute();
  await db.schema.createTable('audit_chain')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('lastIndex', 'integer', (c) => c.notNull())
    .addColumn('lastHash', 'text', (c) => c.notNull())
    .addColumn('baseIndex', 'integer', (c) => c.notNull())
    .addColumn('baseHash', 'text', (c) => c.notNull())
    .addColumn('dailyAt', 'text')
    .execute();
  await db.schema.createTable('audit_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('startedAt', 'text', (c) => c.notNull())
    .addColumn('finishedAt', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('requestedBy', 'text')
    .addColumn('checked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('problem', 'text')
    .addColumn('problemIndex', 'integer')
    .addColumn('problemId', 'text')
    .execute();
  await db.schema.createIndex('audit_verifications_started_idx').on('audit_verifications').column('startedAt').execute();

  let index = 0;
  let prev = GENESIS_HASH;
  let afterSeq = -1;
  for (;;) {
    const rows = await db.selectFrom('audit_logs').select(['seq', ...CHAINED_FIELDS]).where('seq', '>', afterSeq).orderBy('seq').limit(BATCH).execute();
    if (rows.length === 0) break;
    const links = rows.map((row) => {
      index += 1;
      const seq = Number(row.seq);
      const hash = entryHash(prev, { ...row, seq });
      const link = { chainIndex: index, seq, prevHash: prev, hash };
      prev = hash;
      return link;
    });
    for (let i = 0; i < links.length; i += 500) await db.insertInto('audit_chain_links').values(links.slice(i, i + 500)).execute();
    afterSeq = links[links.length - 1]!.seq;
  }
  await db.insertInto('audit_chain').values({ id: 1, lastIndex: index, lastHash: prev, baseIndex: 0, baseHash: GENESIS_HASH, dailyAt: null }).execute();
  if (pg) await sql`analyze audit_chain_links`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['audit_verifications', 'audit_chain', 'audit_pending', 'audit_chain_links']) await db.schema.dropTable(t).ifExists().execute();
}
