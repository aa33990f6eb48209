import type { BackupStatus } from '../../../../common/schemas/backups.js';
import { periodStart, takePeriodSlot } from '../../../platform/background/period-slot.js';
import { nowIso } from '../../../platform/support/clock.js';
import type { AppContext } from '../../../platform/http/context.js';
import { backupsRepository as repo } from './repository.js';
import { backupTo } from './target.js';

/** The scheduled backups' job in period_slots. */
const BACKUP_JOB = 'scheduled backup';

/**
 * Scheduled backups (BACKUP_TARGET, every BACKUP_EVERY_HOURS, the newest BACKUP_KEEP kept):
 * each schedule slot is a period slot taken in the database, so with several instances one makes it.
 */
export function createBackupsService(ctx: AppContext) {
  const { config, db, log } = ctx;
  const everyMs = config.backupEveryHours * 60 * 60_000;

  return {
    async runDue(now = new Date()): Promise<void> {
      if (!config.backupTarget) return;
      const slot = periodStart(now.getTime(), everyMs);
      if (!(await takePeriodSlot(db, BACKUP_JOB, config.instanceId, slot))) return;
      await repo.begin(db, slot, config.instanceId, nowIso());
      try {
        const { location, manifest } = await backupTo(config, config.backupTarget, now, config.backupKeep);
        await repo.finish(db, slot, { at: nowIso(), ok: true, location, files: manifest.files, bytes: manifest.bytes });
        log.info({ location, files: manifest.files, bytes: manifest.bytes }, 'scheduled backup written');
      } catch (err) {
        log.error({ err }, 'scheduled backup failed');
        await repo.finish(db, slot, { at: nowIso(), ok: false, error: (err as Error).message.slice(0, 500) });
      }
    },

    /** For super admins: the last good backup and its age; flagged when older than two schedules. */
    async status(now = Date.now()): Promise<BackupStatus> {
      const [good, last] = await Promise.all([repo.lastGood(db), repo.lastFinished(db)]);
      const ageMs = good?.finishedAt ? now - Date.parse(good.finishedAt) : null;
      return {
        configured: Boolean(config.backupTarget),
        everyHours: config.backupEveryHours,
        keep: config.backupKeep,
        lastGood: good?.finishedAt
          ? { at: good.finishedAt, location: good.location ?? '', files: good.files ?? 0, bytes: good.bytes ?? 0 }
          : null,
        lastFailure: last && !last.ok ? { at: last.finishedAt!, error: last.error ?? '' } : null,
        // Before the first backup there is nothing to be late yet; a failed first one shows as a failure.
        stale: Boolean(config.backupTarget) && ageMs !== null && ageMs > 2 * everyMs,
      };
    },
  };
}
