import { AlertTriangle } from 'lucide-react';
import { MODEL_TEXTS as T } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { ModelsOverview } from '../../../common/schemas/models';
import { cn } from '../../components/ui/cn';
import { formatDateTime } from './format';

const ACTION_TONES = {
  publish: 'bg-green-100 text-green-800',
  rollback: 'bg-orange-100 text-orange-900',
  'end-pilot': 'bg-slate-200 text-slate-800',
} as const;

/** Every publication, rollback and pilot's end, newest first; publishing despite failed checks stands out. */
export function Publications({ publications }: { publications: ModelsOverview['publications'] }) {
  return (
    <section aria-labelledby="publications" className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="publications" className="text-lg font-semibold text-slate-900">
        {S.history.title}
      </h2>
      {publications.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{S.history.empty}</p>
      ) : (
        <ol className="mt-3 divide-y divide-slate-100" data-testid="publications">
          {publications.map((p) => (
            <li key={p.id} className="py-3" data-testid="publication" data-action={p.action}>
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <span className={cn('rounded-full px-2 py-0.5 text-xs font-semibold', ACTION_TONES[p.action])}>
                  {S.history.action[p.action]}
                </span>
                {p.version && <span className="font-semibold text-slate-900">{p.version}</span>}
                <span
                  className={cn(
                    'rounded-full px-2 py-0.5 text-xs font-semibold',
                    p.channel === 'live'
                      ? 'bg-green-50 text-green-800 ring-1 ring-green-200'
                      : 'bg-sky-50 text-sky-800 ring-1 ring-sky-200',
                  )}
                >
                  {p.channel === 'pilot' && p.action === 'publish'
                    ? `${T.channel.pilot} · ${S.stagePanel.share(p.share)}`
                    : T.channel[p.channel]}
                </span>
                <span className="text-slate-600">{T.stage[p.stage]}</span>
                <span className="text-slate-600">
                  <time dateTime={p.at}>{S.history.by(formatDateTime(p.at), p.by)}</time>
                </span>
              </div>
              {p.note && <p className="mt-1 whitespace-pre-line text-sm text-slate-700">{p.note}</p>}
              {p.overrideReason && (
                <p
                  className="mt-2 flex gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
                  data-testid="override-reason"
                >
                  <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
                  <span>
                    <strong className="font-semibold">{S.history.override}</strong> {p.overrideReason}
                  </span>
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
