import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';
import { GENESIS_HASH } from '../../platform/writes/audit-hash.js';

/**
 * Tamper-evident audit trail, kept beside audit_logs so entries are never updated:
 * - audit_chain_links: each entry's place in the chain (chainIndex 1, 2, 3… without gaps), its
 *   seq, the previous entry's hash and its own (platform/audit-hash.ts);
 * - audit_pending: entries written and not chained yet (the sealer's work list);
 * - audit_chain: one row, the head (last index and hash), locked by the sealer so instances
 *   seal one after another, and the base (the last entry moved to an archive by retention);
 * - audit_verifications: results of `Verify now` and the daily check.
 * Existing entries are queued for the sealer, which chains them in seq order.
 */

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('audit_chain_links')
    .addColumn('chainIndex', 'integer', (c) => c.primaryKey())
    .addColumn('seq', pg ? 'bigint' : 'integer', (c) => c.notNull().unique())
    .addColumn('prevHash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('audit_pending')
    .addColumn('seq', pg ? 'bigint' : 'integer', (c) => c.primaryKey())
    .execute();
  await db.schema
    .createTable('audit_chain')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('lastIndex', 'integer', (c) => c.notNull())
    .addColumn('lastHash', 'text', (c) => c.notNull())
    .addColumn('baseIndex', 'integer', (c) => c.notNull())
    .addColumn('baseHash', 'text', (c) => c.notNull())
    .addColumn('dailyAt', 'text')
    .execute();
  await db.schema
    .createTable('audit_verifications')
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

  // Existing entries wait for the sealer (platform/audit.ts), which chains them in seq order at
  // the first start, as it does every new entry: one way of hashing, not a copy of it here.
  await sql`insert into audit_pending (seq) select seq from audit_logs`.execute(db);
  await db
    .insertInto('audit_chain')
    .values({ id: 1, lastIndex: 0, lastHash: GENESIS_HASH, baseIndex: 0, baseHash: GENESIS_HASH, dailyAt: null })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['audit_verifications', 'audit_chain', 'audit_pending', 'audit_chain_links'])
    await db.schema.dropTable(t).ifExists().execute();
}
