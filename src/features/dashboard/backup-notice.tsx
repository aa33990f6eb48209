import { useQuery } from '@tanstack/react-query';
import { DatabaseBackup } from 'lucide-react';
import { relativeTime } from '../../../common/activity';
import { BACKUP_TEXTS as T } from '../../../common/backups';
import type { BackupStatus } from '../../../common/schemas/backups';
import { api } from '../../lib/api';

/** Super admins' line about scheduled backups: when the last good one was made, and a warning when none is recent. */
export function BackupNotice({ now }: { now: number }) {
  const status = useQuery({ queryKey: ['backups', 'status'], queryFn: () => api<BackupStatus>('/api/backups/status'), staleTime: 60_000 });
  const s = status.data;
  if (!s) return null;
  const warn = !s.configured || s.stale || s.lastFailure !== null;
  return (
    <section
      aria-labelledby="backups-heading"
      data-testid="backup-notice"
      className={
        `mt-8 flex items-start gap-3 rounded-2xl border p-4 text-sm ` +
        `${warn ? 'border-amber-300 bg-amber-50 text-amber-900' : 'border-slate-200 bg-white text-slate-700'}`
      }
    >
      <DatabaseBackup className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
      <div>
        <h2 id="backups-heading" className="font-semibold">
          {T.heading}
        </h2>
        {!s.configured ? (
          <p>{T.off}</p>
        ) : (
          <>
            <p>
              {s.lastGood ? T.last(relativeTime(s.lastGood.at, now), s.lastGood.location) : T.none} {T.schedule(s.everyHours, s.keep)}
            </p>
            {s.stale && <p className="font-medium">{T.stale(s.everyHours)}</p>}
            {s.lastFailure && <p>{T.failed(s.lastFailure.error)}</p>}
          </>
        )}
      </div>
    </section>
  );
}
