import { sql, type Kysely } from 'kysely';

/** Photos are looked up by their bytes' hash when one is uploaded (is it a copy of a stored photo?). */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index catalog_images_sha256 on catalog_images (sha256)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index catalog_images_sha256`.execute(db);
}
