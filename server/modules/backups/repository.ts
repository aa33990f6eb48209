import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

type Db = Kysely<Database>;

/** Queries of scheduled backups: a run claimed by its slot, its end, the latest ones. */
export const backupsRepository = {
  /** True when this instance took the slot (the insert wins once across instances). */
  async claim(db: Db, slot: string, instance: string, at: string): Promise<boolean> {
    const r = await db.insertInto('backup_runs').values({ id: slot, instance, startedAt: at, finishedAt: null, ok: null, location: null, files: null, bytes: null, error: null })
      .onConflict((oc) => oc.column('id').doNothing()).executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  },

  async finish(db: Db, slot: string, result: { at: string; ok: boolean; location?: string; files?: number; bytes?: number; error?: string }): Promise<void> {
    await db.updateTable('backup_runs').set({
      finishedAt: result.at, ok: result.ok ? 1 : 0, location: result.location ?? null, files: result.files ?? null, bytes: result.bytes ?? null, error: result.error ?? null,
    }).where('id', '=', slot).execute();
  },

  lastGood(db: Db) {
    return db.selectFrom('backup_runs').selectAll().where('ok', '=', 1).orderBy('finishedAt', 'desc').limit(1).executeTakeFirst();
  },

  lastFinished(db: Db) {
    return db.selectFrom('backup_runs').selectAll().where('finishedAt', 'is not', null).orderBy('finishedAt', 'desc').limit(1).executeTakeFirst();
  },
};
