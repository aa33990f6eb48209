import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * History logs at a million entries.
 * - The actor of an entry is coalesce(userId, actorId, performedBy) (older entries name the
 *   user in actorId or performedBy): one index on that expression serves the user filter and
 *   an ADMIN's own-entries scope, newest first.
 * - Full-text search over user, document name and description: on SQLite a contentless FTS5
 *   table keyed by seq, kept by triggers; on PostgreSQL a stored generated tsvector column
 *   with a GIN index. Both split the text at anything that is not a letter or digit.
 */
const ACCENTED = 'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖòóôõöÙÚÛÜùúûüÑñÇçÝýÿ';
const PLAIN = 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOoooooUUUUuuuuNnCcYyy';
const ACTOR_KEY_SQL = 'coalesce("userId", "actorId", "performedBy")';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`create index audit_actor_key_idx on audit_logs ((${ACTOR_KEY_SQL}), "timestamp", "seq")`).execute(db);

  if (isPostgres(db)) {
    // Accents are folded as the browser's query words are (ñ matches n), punctuation splits words.
    await sql
      .raw(
        `alter table audit_logs add column "search" tsvector generated always as (
      to_tsvector('simple'::regconfig, translate(regexp_replace(
        coalesce("userName", '') || ' ' || coalesce("userEmail", '') || ' ' || coalesce("documentName", "name", '') || ' ' || coalesce("description", ''),
        '[[:punct:]]+', ' ', 'g'), '${ACCENTED}', '${PLAIN}'))
    ) stored`,
      )
      .execute(db);
    await sql`create index audit_search_idx on audit_logs using gin ("search")`.execute(db);
    await sql`analyze audit_logs`.execute(db);
    return;
  }

  await sql`create virtual table audit_logs_fts using fts5(
    who, document, description,
    content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'
  )`.execute(db);
  const values =
    `coalesce(new."userName", '') || ' ' || coalesce(new."userEmail", ''), coalesce(new."documentName", ` +
    `new."name", ''), coalesce(new."description", '')`;
  await sql
    .raw(
      `create trigger audit_logs_fts_insert after insert on audit_logs begin
    insert into audit_logs_fts (rowid, who, document, description) values (new.seq, ${values});
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
    insert into audit_logs_fts (rowid, who, document, description) values (new.seq, ${values});
  end`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into audit_logs_fts (rowid, who, document, description)
    select seq, ${values.replaceAll('new.', '')} from audit_logs`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists audit_search_idx`.execute(db);
    await sql`alter table audit_logs drop column if exists "search"`.execute(db);
  } else {
    for (const t of ['audit_logs_fts_insert', 'audit_logs_fts_delete', 'audit_logs_fts_update'])
      await sql.raw(`drop trigger if exists ${t}`).execute(db);
    await sql`drop table if exists audit_logs_fts`.execute(db);
  }
  await sql`drop index if exists audit_actor_key_idx`.execute(db);
}
