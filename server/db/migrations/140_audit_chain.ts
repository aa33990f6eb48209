import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';
import { CHAINED_FIELDS, entryHash, GENESIS_HASH } from '../../platform/audit-hash.js';

/**
 * Tamper-evident audit trail. Every audit entry gets its place in the chain (chainIndex, 1, 2,
 * 3… without gaps), the previous entry's hash and its own (platform/audit-hash.ts), given by
 * the sealer right after the entry commits. The one-row audit_chain table holds the head (last
 * index and hash), locked by the sealer so instances seal one after another, and the base: the last entry moved to an
 * archive file by retention (0 and the genesis hash until then). audit_verifications keeps
 * the results of `Verify now` and the daily check. Existing entries are chained in seq order.
 */
const BATCH = 2000;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.alterTable('audit_logs').addColumn('chainIndex', 'integer').execute();
  await db.schema.alterTable('audit_logs').addColumn('prevHash', 'text').execute();
  await db.schema.alterTable('audit_logs').addColumn('hash', 'text').execute();

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

  if (!pg) {
    // Only the searched columns feed the search index: writing chain columns must not re-index.
    await sql`drop trigger if exists audit_logs_fts_update`.execute(db);
    await sql.raw(`create trigger audit_logs_fts_update after update of "userName", "userEmail", "documentName", "name", "description" on audit_logs begin
    delete from audit_logs_fts where rowid = old.seq;
    insert into audit_logs_fts (rowid, who, document, description) values (new.seq, coalesce(new."userName", '') || ' ' || coalesce(new."userEmail", ''), coalesce(new."documentName", new."name", ''), coalesce(new."description", ''));
  end`).execute(db);
  }

  let index = 0;
  let prev = GENESIS_HASH;
  let afterSeq = -1;
  for (;;) {
    const rows = await db.selectFrom('audit_logs').select(['seq', ...CHAINED_FIELDS]).where('seq', '>', afterSeq).orderBy('seq').limit(BATCH).execute();
    if (rows.length === 0) break;
    const chained = rows.map((row) => {
      index += 1;
      const seq = Number(row.seq);
      const hash = entryHash(prev, { ...row, seq });
      const link = { seq, chainIndex: index, prevHash: prev, hash };
      prev = hash;
      return link;
    });
    if (pg) {
      const values = sql.join(chained.map((c) => sql`(${c.seq}::bigint, ${c.chainIndex}::integer, ${c.prevHash}, ${c.hash})`));
      await sql`update audit_logs as a set "chainIndex" = v.i, "prevHash" = v.p, "hash" = v.h from (values ${values}) as v(s, i, p, h) where a.seq = v.s`.execute(db);
    } else {
      await db.transaction().execute(async (trx) => {
        for (const c of chained) await trx.updateTable('audit_logs').set({ chainIndex: c.chainIndex, prevHash: c.prevHash, hash: c.hash }).where('seq', '=', c.seq).execute();
      });
    }
    afterSeq = chained[chained.length - 1]!.seq;
  }
  await db.insertInto('audit_chain').values({ id: 1, lastIndex: index, lastHash: prev, baseIndex: 0, baseHash: GENESIS_HASH, dailyAt: null }).execute();
  await db.schema.createIndex('audit_chain_index_idx').on('audit_logs').column('chainIndex').unique().execute();
  // The sealer's work list: entries written but not chained yet (a handful at any time).
  await sql`create index audit_unsealed_idx on audit_logs (seq) where "chainIndex" is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_unsealed_idx').ifExists().execute();
  await db.schema.dropIndex('audit_chain_index_idx').ifExists().execute();
  await db.schema.dropTable('audit_verifications').ifExists().execute();
  await db.schema.dropTable('audit_chain').ifExists().execute();
  for (const c of ['hash', 'prevHash', 'chainIndex']) await db.schema.alterTable('audit_logs').dropColumn(c).execute();
}
