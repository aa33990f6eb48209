import type { Kysely } from 'kysely';

/**
 * period_slots: once-per-period work across instances (server/platform/background/period-slot.ts),
 * one row a job with the last period its run was taken for. The scheduled backups' last slot
 * (backup_runs) and the daily audit run's claim (audit_chain.dailyAt) become its first rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('period_slots')
    .addColumn('job', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('periodStart', 'text', (c) => c.notNull())
    .addColumn('takenAt', 'text', (c) => c.notNull())
    .execute();
  const backup = await db
    .selectFrom('backup_runs')
    .select(['id', 'instance', 'startedAt'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (backup) {
    await db
      .insertInto('period_slots')
      .values({ job: 'scheduled backup', holder: backup.instance, periodStart: backup.id, takenAt: backup.startedAt })
      .execute();
  }
  const chain = await db.selectFrom('audit_chain').select('dailyAt').where('id', '=', 1).executeTakeFirst();
  if (chain?.dailyAt) {
    await db
      .insertInto('period_slots')
      .values({ job: 'daily audit trail run', holder: 'unknown', periodStart: chain.dailyAt, takenAt: chain.dailyAt })
      .execute();
  }
  await db.schema.alterTable('audit_chain').dropColumn('dailyAt').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_chain').addColumn('dailyAt', 'text').execute();
  const daily = await db.selectFrom('period_slots').select('periodStart').where('job', '=', 'daily audit trail run').executeTakeFirst();
  if (daily) await db.updateTable('audit_chain').set({ dailyAt: daily.periodStart }).where('id', '=', 1).execute();
  await db.schema.dropTable('period_slots').execute();
}
