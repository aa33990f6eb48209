import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Anchor, Download, ShieldAlert, ShieldCheck, ShieldQuestion } from 'lucide-react';
import { AUDIT_TRAIL } from '../../../common/audit-trail';
import { fullDate } from '../../../common/history-dates';
import type { AuditTrailStatus } from '../../../common/schemas/audit-trail';
import { Button } from '../../components/ui/button';
import { useToast } from '../../components/ui/toast';
import { api, ApiError } from '../../lib/api';

// Key 'audit_trail': the live stream refreshes it when a verification starts, moves or ends.
function useAuditTrail() {
  return useQuery({
    queryKey: ['audit_trail'],
    queryFn: ({ signal }) => api<AuditTrailStatus>('/api/audit-trail', { signal }),
    refetchInterval: (q) => (q.state.data?.last?.status === 'running' ? 2000 : false),
  });
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * For super admins, above the History list: the last verification of the audit chain and its
 * result, 'Verify now' (runs in the background, progress shown), 'Save a checkpoint now', and the
 * retention archives, each downloadable as the History CSV.
 */
export function IntegrityPanel() {
  const status = useAuditTrail();
  const queryClient = useQueryClient();
  const toast = useToast();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['audit_trail'] });
  const verify = useMutation({
    mutationFn: () => api('/api/audit-trail/verifications', { method: 'POST' }),
    onSettled: refresh,
    onError: (err) => toast.show(err instanceof ApiError ? err.message : String(err), { tone: 'error' }),
  });
  const anchor = useMutation({
    mutationFn: () => api<{ index: number }>('/api/audit-trail/anchors', { method: 'POST' }),
    onSuccess: (a) => toast.show(AUDIT_TRAIL.anchorWritten(a.index)),
    onSettled: refresh,
    onError: (err) => toast.show(err instanceof ApiError ? err.message : String(err), { tone: 'error' }),
  });

  const data = status.data;
  const last = data?.last ?? null;
  const running = last?.status === 'running';
  const percent = running && last.total > 0 ? Math.min(100, Math.round((last.checked / last.total) * 100)) : 0;
  const tone = !last ? 'slate' : last.status === 'ok' ? 'green' : last.status === 'running' ? 'brand' : 'red';
  const Icon = !last || running ? ShieldQuestion : last.status === 'ok' ? ShieldCheck : ShieldAlert;
  const toneClass = {
    slate: 'border-slate-200 bg-white',
    green: 'border-green-200 bg-green-50',
    brand: 'border-brand-200 bg-brand-50',
    red: 'border-red-300 bg-red-50',
  }[tone];
  const iconClass = { slate: 'text-slate-500', green: 'text-green-700', brand: 'text-brand-700', red: 'text-red-700' }[tone];

  return (
    <section
      aria-labelledby="integrity-heading"
      className={`mb-4 rounded-2xl border p-4 shadow-sm ${toneClass}`}
      data-testid="integrity-panel"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-1 items-start gap-3">
          <Icon className={`mt-0.5 h-6 w-6 shrink-0 ${iconClass}`} aria-hidden />
          <div className="min-w-0">
            <h2 id="integrity-heading" className="text-sm font-semibold text-slate-900">
              {AUDIT_TRAIL.heading}
            </h2>
            <div className="text-sm text-slate-700" role="status" aria-live="polite" data-testid="integrity-status">
              {!data ? (
                '…'
              ) : !last ? (
                AUDIT_TRAIL.never
              ) : last.status === 'running' ? (
                AUDIT_TRAIL.running(last.checked, last.total)
              ) : last.status === 'ok' ? (
                AUDIT_TRAIL.ok(last.checked, fullDate(last.finishedAt ?? last.startedAt))
              ) : last.status === 'failed' ? (
                <>
                  <span className="font-medium text-red-800">{AUDIT_TRAIL.failed(fullDate(last.finishedAt ?? last.startedAt))}</span>{' '}
                  <span className="break-words">{last.problem}</span>
                </>
              ) : (
                AUDIT_TRAIL.error(fullDate(last.startedAt))
              )}
            </div>
            {data && (
              <p className="mt-1 text-xs text-slate-500">
                Latest entry #{count(data.head.index)} · {count(data.head.entries)} entries in the database
                {data.head.baseIndex > 0 ? ` (#1–#${count(data.head.baseIndex)} archived)` : ''}
                {data.lastAnchor
                  ? ` · last checkpoint ${fullDate(data.lastAnchor.at)} at #${count(data.lastAnchor.index)}`
                  : ' · no checkpoint yet'}
                {' · '}
                {data.retentionDays
                  ? `entries older than ${count(data.retentionDays)} days are archived daily`
                  : 'every entry is kept (no retention set)'}
              </p>
            )}
          </div>
        </div>
        <div className="flex flex-wrap gap-2 sm:shrink-0">
          <Button variant="secondary" size="sm" onClick={() => anchor.mutate()} disabled={anchor.isPending}>
            <Anchor className="h-4 w-4" aria-hidden />
            {AUDIT_TRAIL.anchorNow}
          </Button>
          <Button size="sm" onClick={() => verify.mutate()} disabled={running || verify.isPending}>
            <ShieldCheck className="h-4 w-4" aria-hidden />
            {running || verify.isPending ? AUDIT_TRAIL.verifying : AUDIT_TRAIL.verifyNow}
          </Button>
        </div>
      </div>
      {running && (
        <div
          className="mt-3 h-2 overflow-hidden rounded-full bg-brand-100"
          role="progressbar"
          aria-label={AUDIT_TRAIL.verifying}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${Math.max(percent, 3)}%` }} />
        </div>
      )}
      {data && data.archives.length > 0 && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium text-slate-700">
            {AUDIT_TRAIL.archivesHeading} ({data.archives.length})
          </summary>
          <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {data.archives.map((a) => (
              <li key={a.file} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
                <span className="text-slate-700">
                  {AUDIT_TRAIL.archiveRow(a.firstIndex, a.lastIndex, a.count)} · {fullDate(a.createdAt)}
                </span>
                <a
                  className="inline-flex items-center gap-1 text-brand-700 hover:underline"
                  href={`/api/audit-trail/archives/${encodeURIComponent(a.file)}`}
                  download
                >
                  <Download className="h-4 w-4" aria-hidden />
                  {AUDIT_TRAIL.downloadCsv}
                  <span className="sr-only"> {a.file}</span>
                </a>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
