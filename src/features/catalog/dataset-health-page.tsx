import { useState } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, Download, RotateCcw, Trash2 } from 'lucide-react';
import { DATASET_TEXTS as T, PHOTO_REMOVAL_TEXTS as R } from '../../../common/dataset';
import { useSentForReview } from '../../components/review/use-sent-for-review';
import { useToast } from '../../components/ui/toast';
import { formatDateTime } from './format';
import type { DatasetHealth } from '../../../common/schemas/dataset';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../components/ui/cn';
import { useDatasetHealth, usePhotoRemoval } from './api';

type Health = DatasetHealth;

function Thumb({ url, label, className }: { url: string | null; label: string; className?: string }) {
  return url ? (
    <img src={url} alt={label} loading="lazy" className={cn('h-24 w-24 rounded-md object-cover ring-1 ring-slate-200', className)} />
  ) : (
    <div className={cn('flex h-24 w-24 items-center justify-center rounded-md bg-slate-100 text-xs text-slate-500', className)}>
      {label}
    </div>
  );
}

type Removal = ReturnType<typeof usePhotoRemoval>;

/** "Remove from this disease": the photo leaves the disease and the training set, kept to be put back. */
function RemoveButton({
  imageId,
  diseaseId,
  disease,
  removal,
  compact,
}: {
  imageId: string;
  diseaseId: string;
  disease: string;
  removal: Removal;
  compact?: boolean;
}) {
  const toast = useToast();
  const sentForReview = useSentForReview();
  return (
    <button
      type="button"
      aria-label={R.removeLabel(disease)}
      title={R.remove}
      disabled={removal.remove.isPending}
      onClick={() =>
        removal.remove.mutate(
          { imageId, diseaseId },
          {
            onSuccess: (result) => {
              if (!sentForReview(result)) toast.show(R.removed);
            },
            onError: (err) => toast.show(err.message),
          },
        )
      }
      className={cn(
        'mt-1 inline-flex items-center gap-1 rounded px-1 py-0.5 text-xs font-medium text-red-700',
        'hover:bg-red-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-red-500',
        'disabled:opacity-50',
      )}
    >
      <Trash2 className="h-3.5 w-3.5" aria-hidden />
      {compact ? R.removeShort : R.remove}
    </button>
  );
}

function Removed({ health, removal }: { health: Health; removal: Removal }) {
  const toast = useToast();
  const sentForReview = useSentForReview();
  return (
    <Section id="removed" title={R.title} help={R.help}>
      {health.removed.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{R.empty}</p>
      ) : (
        <ul className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {health.removed.map((p) => (
            <li key={p.id} className="flex gap-3 rounded-lg border border-slate-100 p-2" data-testid="removed-photo">
              <Thumb url={p.thumbUrl} label={p.id} className="h-20 w-20" />
              <div className="min-w-0 text-xs text-slate-600">
                <p className="truncate text-sm font-medium text-slate-800">{p.diseaseName ?? p.diseaseId}</p>
                <p>{R.by(p.removedBy, formatDateTime(p.removedAt))}</p>
                <button
                  type="button"
                  aria-label={R.putBackLabel(p.diseaseName ?? p.diseaseId)}
                  disabled={removal.putBack.isPending}
                  onClick={() =>
                    removal.putBack.mutate(p.id, {
                      onSuccess: (result) => {
                        if (!sentForReview(result)) toast.show(R.putBackDone);
                      },
                      onError: (err) => toast.show(err.message),
                    })
                  }
                  className={cn(
                    'mt-1 inline-flex items-center gap-1 rounded px-1 py-0.5 text-xs font-medium text-brand-700',
                    'hover:bg-brand-50 focus-visible:outline-none focus-visible:ring-2',
                    'focus-visible:ring-brand-600 disabled:opacity-50',
                  )}
                >
                  <RotateCcw className="h-3.5 w-3.5" aria-hidden />
                  {R.putBack}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Section({ id, title, help, children }: { id: string; title: string; help: string; children: ReactNode }) {
  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-5" aria-labelledby={id}>
      <h2 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{help}</p>
      {children}
    </section>
  );
}

/** Photos per disease as bars: the imbalance is seen before it is read. */
function Balance({ health }: { health: Health }) {
  const largest = Math.max(1, ...health.diseases.map((d) => d.photos));
  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-5" aria-labelledby="balance">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="balance" className="text-base font-semibold text-slate-900">
          {T.balance.title}
        </h2>
        <p className="text-sm text-slate-600">{T.balance.imbalance(health.imbalance)}</p>
      </div>
      <ul className="mt-3 space-y-2 text-sm">
        {health.diseases.map((d) => (
          <li key={d.id}>
            <div className="flex flex-wrap justify-between gap-x-3">
              <span className="text-slate-700">{d.name}</span>
              <span className="tabular-nums text-slate-600">
                {d.photos.toLocaleString('en-US')} · {(d.share * 100).toFixed(1)}%
                {d.fingerprinted < d.photos && (
                  <span className="ml-1 text-amber-700">
                    ({T.balance.fingerprinted} {d.fingerprinted.toLocaleString('en-US')})
                  </span>
                )}
              </span>
            </div>
            <div className="mt-1 h-3 rounded bg-slate-100" aria-hidden>
              <div className="h-3 rounded bg-brand-600/80" style={{ width: `${Math.max(0.5, (d.photos / largest) * 100)}%` }} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Copies({ health, names, removal }: { health: Health; names: Map<string, string>; removal: Removal }) {
  const tone = { conflict: 'bg-red-100 text-red-800', exact: 'bg-amber-100 text-amber-800', near: 'bg-sky-100 text-sky-800' } as const;
  return (
    <Section id="copies" title={T.clusters.title} help={T.clusters.help}>
      {health.clusters.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{T.clusters.empty}</p>
      ) : (
        <ul className="mt-3 space-y-3">
          {health.clusters.map((group) => (
            <li key={group.cluster} className="rounded-lg border border-slate-100 p-3" data-testid="copy-group" data-kind={group.kind}>
              <span className={cn('rounded-full px-2 py-0.5 text-xs font-semibold', tone[group.kind])}>{T.clusters.kind[group.kind]}</span>
              <div className="mt-2 flex flex-wrap gap-3">
                {group.photos.map((p) => (
                  <figure key={p.id} className="w-28">
                    <Thumb url={p.thumbUrl} label={p.id} />
                    <figcaption className="mt-1 text-xs text-slate-600">
                      <span className="block truncate font-medium text-slate-800">{names.get(p.diseaseId) ?? p.diseaseId}</span>
                      {p.distance !== null && T.clusters.distance(p.distance)}
                      <RemoveButton
                        imageId={p.id}
                        diseaseId={p.diseaseId}
                        disease={names.get(p.diseaseId) ?? p.diseaseId}
                        removal={removal}
                        compact
                      />
                    </figcaption>
                  </figure>
                ))}
              </div>
            </li>
          ))}
        </ul>
      )}
      {health.clusterCount > health.clusters.length && (
        <p className="mt-3 text-sm text-slate-500">{T.clusters.more(health.clusterCount - health.clusters.length)}</p>
      )}
    </Section>
  );
}

function Quality({ health, names, removal }: { health: Health; names: Map<string, string>; removal: Removal }) {
  return (
    <Section id="quality" title={T.quality.title} help={T.quality.help}>
      {health.flagged.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{T.quality.empty}</p>
      ) : (
        <ul className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {health.flagged.map((p) => (
            <li key={p.id} className="flex gap-3 rounded-lg border border-slate-100 p-2" data-testid="flagged-photo">
              <Thumb url={p.thumbUrl} label={p.id} className="h-20 w-20" />
              <div className="min-w-0 text-xs text-slate-600">
                <p className="truncate text-sm font-medium text-slate-800">{names.get(p.diseaseId) ?? p.diseaseId}</p>
                <p className="mt-1 flex flex-wrap gap-1">
                  {p.flags.map((f) => (
                    <span key={f} className="rounded-full bg-amber-100 px-2 py-0.5 font-semibold text-amber-800">
                      {T.quality.flags[f]}
                    </span>
                  ))}
                </p>
                <p className="mt-1">{T.quality.measures(p)}</p>
                {p.width !== null && p.height !== null && (
                  <p>
                    {p.width}×{p.height}
                  </p>
                )}
                <RemoveButton imageId={p.id} diseaseId={p.diseaseId} disease={names.get(p.diseaseId) ?? p.diseaseId} removal={removal} />
              </div>
            </li>
          ))}
        </ul>
      )}
      {health.flaggedCount > health.flagged.length && (
        <p className="mt-3 text-sm text-slate-500">{T.quality.more(health.flaggedCount - health.flagged.length)}</p>
      )}
    </Section>
  );
}

/** Dataset health (super admins): the disease photos as the scanner's training set sees them. */
export function DatasetHealthPage() {
  const [pending, setPending] = useState(false);
  const query = useDatasetHealth(pending);
  const removal = usePhotoRemoval();
  const health = query.data;
  const names = new Map((health?.diseases ?? []).map((d) => [d.id, d.name]));
  const totals = health ? (Object.keys(T.totals) as Array<keyof typeof T.totals>) : [];
  return (
    <div className="space-y-5">
      <Link to=".." relative="path" className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
        <ArrowLeft className="h-4 w-4" aria-hidden />
        {T.back}
      </Link>
      <PageHeader
        title={T.title}
        subtitle={T.subtitle}
        actions={
          <>
            <label className="inline-flex h-10 items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                checked={pending}
                onChange={(e) => setPending(e.target.checked)}
                className="h-4 w-4 rounded border-slate-300"
              />
              {T.withPending}
            </label>
            <a
              href={`/api/dataset-health/report.csv${pending ? '?pending=true' : ''}`}
              download
              className={cn(
                'inline-flex h-10 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4',
                'text-sm font-medium text-slate-700 hover:bg-slate-50',
              )}
            >
              <Download className="h-4 w-4" aria-hidden />
              {T.csv}
            </a>
          </>
        }
      />
      {query.isPending ? (
        <div className="flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-12 text-slate-500">
          <Spinner />
          <span>{T.loading}</span>
        </div>
      ) : query.isError || !health ? (
        <p role="alert" className="rounded-lg bg-red-50 p-4 text-sm text-red-700">
          {query.error?.message}
        </p>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
            {totals.map((key) => (
              <div key={key} className="rounded-xl border border-slate-200 bg-white p-3">
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{T.totals[key]}</dt>
                <dd className="mt-1 text-2xl font-bold tabular-nums text-slate-900" data-testid={`total-${key}`}>
                  {health.totals[key].toLocaleString('en-US')}
                </dd>
              </div>
            ))}
          </dl>
          {health.totals.fingerprinted < health.totals.photos && (
            <p className="text-sm text-amber-800">{T.unchecked(health.totals.photos - health.totals.fingerprinted)}</p>
          )}
          <Balance health={health} />
          <Copies health={health} names={names} removal={removal} />
          <Quality health={health} names={names} removal={removal} />
          <Removed health={health} removal={removal} />
        </>
      )}
    </div>
  );
}
