import type { Kysely } from 'kysely';

/**
 * When the session's user last proved who they are (current password, and a code when the
 * account has a second factor): changes that could take the account over need that within the
 * last few minutes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('reauthAt', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('reauthAt').execute();
}
