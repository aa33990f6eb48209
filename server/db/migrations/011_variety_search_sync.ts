import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Keeps rice_seed_varieties.searchText right whoever writes the table (the import command
 * writes rows directly): a row inserted without it, or whose searched fields change while it
 * stays the same, gets it computed by the database. The varieties repository still writes it
 * itself (full Unicode lower-casing); the triggers are the safety net, so the search needs no
 * per-row fallback and can read one covering index: (isDeleted, createdAt, id, searchText).
 */
const FIELDS = ['varietyName', 'releaseName', 'yearRelease', 'location', 'breedingCode', 'breederOrigin'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    const joined = FIELDS.map((f) => `coalesce(NEW."${f}", '')`).join(` || E'\\n' || `);
    const changed = FIELDS.map((f) => `NEW."${f}" is distinct from OLD."${f}"`).join(' or ');
    await sql
      .raw(
        `
      create or replace function rice_varieties_search_text() returns trigger as $$
      begin
        if (TG_OP = 'INSERT' and NEW."searchText" = '')
           or (TG_OP = 'UPDATE' and NEW."searchText" = OLD."searchText" and (${changed})) then
          NEW."searchText" := lower(${joined});
        end if;
        return NEW;
      end
      $$ language plpgsql`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger rice_varieties_search_text before insert or update on rice_seed_varieties
      for each row execute function rice_varieties_search_text()`,
      )
      .execute(db);
  } else {
    const joined = FIELDS.map((f) => `coalesce(NEW."${f}", '')`).join(' || char(10) || ');
    const changed = FIELDS.map((f) => `NEW."${f}" is not OLD."${f}"`).join(' or ');
    await sql
      .raw(
        `create trigger rice_varieties_search_text_insert after insert on rice_seed_varieties
      when NEW."searchText" = ''
      begin update rice_seed_varieties set "searchText" = lower(${joined}) where id = NEW.id; end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger rice_varieties_search_text_update after update on rice_seed_varieties
      when NEW."searchText" = OLD."searchText" and (${changed})
      begin update rice_seed_varieties set "searchText" = lower(${joined}) where id = NEW.id; end`,
      )
      .execute(db);
  }

  // Rows written before the triggers existed.
  const joinedNow = sql.raw(FIELDS.map((f) => `coalesce("${f}", '')`).join(isPostgres(db) ? ` || E'\\n' || ` : ' || char(10) || '));
  await sql`update rice_seed_varieties set "searchText" = lower(${joinedNow}) where "searchText" = ''`.execute(db);

  await db.schema.dropIndex('varieties_order_idx').ifExists().execute();
  await db.schema
    .createIndex('varieties_search_idx')
    .on('rice_seed_varieties')
    .columns(['isDeleted', 'createdAt', 'id', 'searchText'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('varieties_search_idx').ifExists().execute();
  await db.schema.createIndex('varieties_order_idx').on('rice_seed_varieties').columns(['isDeleted', 'createdAt', 'id']).execute();
  if (isPostgres(db)) {
    await sql.raw('drop trigger if exists rice_varieties_search_text on rice_seed_varieties').execute(db);
    await sql.raw('drop function if exists rice_varieties_search_text()').execute(db);
  } else {
    await sql.raw('drop trigger if exists rice_varieties_search_text_insert').execute(db);
    await sql.raw('drop trigger if exists rice_varieties_search_text_update').execute(db);
  }
}
