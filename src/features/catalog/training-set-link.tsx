import { cn } from '../../components/ui/cn';
import { Link } from 'react-router';
import { Activity, Download } from 'lucide-react';
import { DATASET_TEXTS } from '../../../common/dataset';
import { can } from '../../../common/permissions';
import { TRAINING_SET, type CatalogKind } from '../../../common/catalog';
import { useSession } from '../../lib/session';

/**
 * The disease scanner's training set as a ZIP the server streams with its size known, so the
 * browser's own download manager saves it straight to disk and shows the progress (sets run
 * to gigabytes; holding them in the page would not do). Super admins only.
 */
export function TrainingSetLink({ kind, entryId }: { kind: CatalogKind; entryId?: string }) {
  const { session } = useSession();
  if (!kind.trainingSetExport || !can(session?.user.role, 'trainingData.export')) return null;
  const href = entryId ? `${TRAINING_SET.url}?diseaseId=${encodeURIComponent(entryId)}` : TRAINING_SET.url;
  return (
    <span className="inline-flex flex-col items-start gap-1">
      <a
        href={href}
        download
        title={TRAINING_SET.hint}
        className={cn(
          'inline-flex h-10 items-center justify-center gap-2 rounded-lg border border-slate-300',
          'bg-white px-4 text-sm font-medium text-slate-700 hover:bg-slate-50',
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-slate-400',
        )}
      >
        <Download className="h-4 w-4" aria-hidden />
        {entryId ? TRAINING_SET.downloadOne : TRAINING_SET.downloadAll}
      </a>
      <a
        href={`${href}${href.includes('?') ? '&' : '?'}pending=true`}
        download
        title={TRAINING_SET.withPendingHint}
        className={cn(
          'text-xs text-slate-600 underline underline-offset-2 hover:text-slate-900',
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-slate-400',
        )}
      >
        {TRAINING_SET.withPending}
      </a>
    </span>
  );
}

/** The Dataset health screen of the disease photos, beside the training set's download (super admins). */
export function DatasetHealthLink({ kind }: { kind: CatalogKind }) {
  const { session } = useSession();
  if (!kind.trainingSetExport || !can(session?.user.role, 'trainingData.export')) return null;
  return (
    <Link
      to="health"
      className={cn(
        'inline-flex h-10 items-center justify-center gap-2 rounded-lg border border-slate-300',
        'bg-white px-4 text-sm font-medium text-slate-700 hover:bg-slate-50',
        'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-slate-400',
      )}
    >
      <Activity className="h-4 w-4" aria-hidden />
      {DATASET_TEXTS.link}
    </Link>
  );
}
