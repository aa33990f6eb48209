import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * History search at a million entries, SQLite: the FTS5 table of migration 040 gets prefix
 * indexes for the first 1 to 4 characters of every word. A search word is a prefix; without
 * these FTS5 merges the whole list of every word that begins with it before it can answer
 * (about 15 ms for 'nsic', 40 ms for 'rice', at 1,000,000 entries), with them the list of a
 * prefix of up to 4 characters is read lazily, newest first, and a query stops as soon as it
 * has enough. Longer words are looked up by their first 4 characters and checked in full
 * afterwards. The index grows from about 50 MB to about 225 MB per million entries
 * (bench/history.ts measures the difference). FTS5 cannot add prefix indexes to an existing
 * table, so the table and its triggers are made again and filled from audit_logs.
 * PostgreSQL keeps its tsvector column and GIN index of 040 unchanged.
 */
const VALUES =
  `coalesce(new."userName", '') || ' ' || coalesce(new."userEmail", ''), coalesce(new."documentName", ` +
  `new."name", ''), coalesce(new."description", '')`;
const TRIGGERS = ['audit_logs_fts_insert', 'audit_logs_fts_delete', 'audit_logs_fts_update'];

async function makeFts(db: Kysely<any>, prefix: string | null): Promise<void> {
  for (const t of TRIGGERS) await sql.raw(`drop trigger if exists ${t}`).execute(db);
  await sql`drop table if exists audit_logs_fts`.execute(db);
  await sql
    .raw(
      `create virtual table audit_logs_fts using fts5(
    who, document, description,
    content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'${prefix ? `, prefix='${prefix}'` : ''}
  )`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger audit_logs_fts_insert after insert on audit_logs begin
    insert into audit_logs_fts (rowid, who, document, description) values (new.seq, ${VALUES});
  end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger audit_logs_fts_delete after delete on audit_logs begin
    delete from audit_logs_fts where rowid = old.seq;
  end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger audit_logs_fts_update after update on audit_logs begin
    delete from audit_logs_fts where rowid = old.seq;
    insert into audit_logs_fts (rowid, who, document, description) values (new.seq, ${VALUES});
  end`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into audit_logs_fts (rowid, who, document, description)
    select seq, ${VALUES.replaceAll('new.', '')} from audit_logs`,
    )
    .execute(db);
  // One b-tree per index instead of one segment per 1,000 rows written: fewer pages to read.
  await sql`insert into audit_logs_fts (audit_logs_fts) values ('optimize')`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await makeFts(db, '1 2 3 4');
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await makeFts(db, null);
}
