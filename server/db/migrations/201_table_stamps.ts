import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Counted stamps, and a table whose row writes the database itself stamps.
 *
 * cache_stamps gains `seq`, which every move adds one to, and `prev`, the stamp it moved from.
 * A move updates the name's row, which stays locked until the write commits, so a name's seqs
 * follow its commits one by one with no gaps.
 *
 * rice_seed_varieties stamps `table/rice_seed_varieties` on every row written, by anyone (the
 * API, the import, another connection to the SQLite file, plain SQL), and leaves a note of the
 * row's search texts before and after (cache_stamp_notes, kept for the last NOTES_KEPT seqs). A
 * reader that kept values at an older seq reads the notes since then and drops only what they
 * can change (server/platform/cache/stamps.ts, varieties/search/cache.ts). A note 'null' says
 * anything may have changed.
 * On PostgreSQL the trigger is deferred to the commit, so the stamp row is still the last lock
 * a write takes, and it moves once per transaction. SQLite has one writer at a time, and moves
 * it once per row.
 */
const NAME = 'table/rice_seed_varieties';
const NOTES_KEPT = 256;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('cache_stamps')
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('cache_stamps')
    .addColumn('prev', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createTable('cache_stamp_notes')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('prev', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('cache_stamp_notes_pk', ['name', 'seq', 'part'])
    .execute();

  if (isPostgres(db)) {
    // Fired per row at the commit: the first row of a transaction moves the stamp once (its seq
    // kept in a transaction-local setting), each row adds a note; past NOTES_KEPT rows one note
    // says "anything" (null) and the rest write nothing, so a large write costs one row each.
    await sql
      .raw(
        `
      create or replace function rice_varieties_stamp() returns trigger as $$
      declare moved record; seq_now bigint; prev_now text; n integer;
      begin
        seq_now := nullif(current_setting('palayan.varieties_stamp_seq', true), '')::bigint;
        if seq_now is null then
          insert into cache_stamps (name, stamp, seq, prev)
            values ('${NAME}', md5(random()::text || clock_timestamp()::text), 1, '')
            on conflict (name) do update
              set prev = cache_stamps.stamp, stamp = excluded.stamp, seq = cache_stamps.seq + 1
            returning seq, prev into moved;
          seq_now := moved.seq;
          prev_now := moved.prev;
          perform set_config('palayan.varieties_stamp_seq', seq_now::text, true);
          perform set_config('palayan.varieties_stamp_prev', prev_now, true);
          perform set_config('palayan.varieties_stamp_notes', '0', true);
          delete from cache_stamp_notes where name = '${NAME}' and seq <= seq_now - ${NOTES_KEPT};
        else
          prev_now := current_setting('palayan.varieties_stamp_prev');
        end if;
        n := current_setting('palayan.varieties_stamp_notes')::integer + 1;
        perform set_config('palayan.varieties_stamp_notes', n::text, true);
        if n <= ${NOTES_KEPT} then
          insert into cache_stamp_notes (name, seq, part, prev, note) values ('${NAME}', seq_now, n, prev_now,
            case TG_OP
              when 'INSERT' then json_build_array(NEW."searchText")
              when 'UPDATE' then json_build_array(OLD."searchText", NEW."searchText")
              else json_build_array(OLD."searchText")
            end::text);
        elsif n = ${NOTES_KEPT} + 1 then
          insert into cache_stamp_notes (name, seq, part, prev, note) values ('${NAME}', seq_now, n, prev_now, 'null');
        end if;
        return null;
      end
      $$ language plpgsql`,
      )
      .execute(db);
    await sql
      .raw(
        `create constraint trigger rice_varieties_stamp after insert or update or delete on rice_seed_varieties
      deferrable initially deferred for each row execute function rice_varieties_stamp()`,
      )
      .execute(db);
    return;
  }
  const body = (note: string) => `begin
      insert into cache_stamps (name, stamp, seq, prev) values ('${NAME}', lower(hex(randomblob(16))), 1, '')
        on conflict (name) do update set prev = stamp, stamp = excluded.stamp, seq = seq + 1;
      insert into cache_stamp_notes (name, seq, part, prev, note)
        select name, seq, 1, prev, ${note} from cache_stamps where name = '${NAME}';
      delete from cache_stamp_notes where name = '${NAME}'
        and seq <= (select seq from cache_stamps where name = '${NAME}') - ${NOTES_KEPT};
    end`;
  await sql
    .raw(`create trigger rice_varieties_stamp_insert after insert on rice_seed_varieties ${body(`json_array(NEW."searchText")`)}`)
    .execute(db);
  await sql
    .raw(
      `create trigger rice_varieties_stamp_update after update on rice_seed_varieties ${body(`json_array(OLD."searchText", NEW."searchText")`)}`,
    )
    .execute(db);
  await sql
    .raw(`create trigger rice_varieties_stamp_delete after delete on rice_seed_varieties ${body(`json_array(OLD."searchText")`)}`)
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw('drop trigger if exists rice_varieties_stamp on rice_seed_varieties').execute(db);
    await sql.raw('drop function if exists rice_varieties_stamp()').execute(db);
  } else {
    for (const op of ['insert', 'update', 'delete']) await sql.raw(`drop trigger if exists rice_varieties_stamp_${op}`).execute(db);
  }
  await db.schema.dropTable('cache_stamp_notes').execute();
  await db.schema.alterTable('cache_stamps').dropColumn('prev').execute();
  await db.schema.alterTable('cache_stamps').dropColumn('seq').execute();
}
