import type { Kysely } from 'kysely';

/**
 * pending_changes gains `decided`: what the reviewer saw when the change was decided (approved,
 * sent back, or published without review), as JSON: the decision, its time, and the record's
 * published state and the proposed state at that moment. A change's page compares those once
 * the change is decided, not the record as it is now. null: not decided yet, or decided before
 * this column existed. A resubmission or a rebase clears it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pending_changes').addColumn('decided', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pending_changes').dropColumn('decided').execute();
}
