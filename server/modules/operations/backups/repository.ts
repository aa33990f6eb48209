import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';

type Db = Kysely<Database>;

/** Queries of scheduled backups: a run by its slot (taken first: platform/background/period-slot.ts), its end, the latest ones. */
export const backupsRepository = {
  async begin(db: Db, slot: string, instance: string, at: string): Promise<void> {
    await db
      .insertInto('backup_runs')
      .values({ id: slot, instance, startedAt: at, finishedAt: null, ok: null, location: null, files: null, bytes: null, error: null })
      .execute();
  },

  async finish(
    db: Db,
    slot: string,
    result: { at: string; ok: boolean; location?: string; files?: number; bytes?: number; error?: string },
  ): Promise<void> {
    await db
      .updateTable('backup_runs')
      .set({
        finishedAt: result.at,
        ok: result.ok ? 1 : 0,
        location: result.location ?? null,
        files: result.files ?? null,
        bytes: result.bytes ?? null,
        error: result.error ?? null,
      })
      .where('id', '=', slot)
      .execute();
  },

  lastGood(db: Db) {
    return db.selectFrom('backup_runs').selectAll().where('ok', '=', 1).orderBy('finishedAt', 'desc').limit(1).executeTakeFirst();
  },

  lastFinished(db: Db) {
    return db
      .selectFrom('backup_runs')
      .selectAll()
      .where('finishedAt', 'is not', null)
      .orderBy('finishedAt', 'desc')
      .limit(1)
      .executeTakeFirst();
  },
};
