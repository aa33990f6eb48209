import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

/** The start (ISO) of the period of `everyMs` that `at` falls in, periods counted from the epoch. */
export function periodStart(at: number, everyMs: number): string {
  return new Date(Math.floor(at / everyMs) * everyMs).toISOString();
}

/**
 * Takes `job`'s run for the period that starts at `start` (ISO) for `holder`: true for exactly
 * one caller across instances and restarts, when the last period taken started before
 * `lastBefore` (by default `start`: any earlier period). One statement: an insert, or an
 * update of the job's row under that condition, so callers at once never both win.
 */
export async function takePeriodSlot(
  db: Kysely<Database>,
  job: string,
  holder: string,
  start: string,
  lastBefore = start,
): Promise<boolean> {
  const takenAt = new Date().toISOString();
  const result = await db
    .insertInto('period_slots')
    .values({ job, holder, periodStart: start, takenAt })
    .onConflict((oc) =>
      oc.column('job').doUpdateSet({ holder, periodStart: start, takenAt }).where('period_slots.periodStart', '<', lastBefore),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
