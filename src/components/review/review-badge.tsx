import { Link } from 'react-router';
import { Clock, MessageSquareWarning, ShieldAlert } from 'lucide-react';
import { manilaDateTime } from '../../../common/manila-time';
import { REVIEW_TEXTS, type ReviewCollection } from '../../../common/review';
import { REVIEW_SCREEN } from '../../../common/review-screen-texts';
import type { PendingChange } from '../../../common/schemas/review';
import { openChangesOf, useReviewChanges, type OpenChanges } from '../../lib/review';
import { cn } from '../ui/cn';

const REVIEW_PATH = '/dashboard/review';

/**
 * The collection's open changes (waiting, approved, sent back), joined to the list's records by
 * id: one request per list screen, shared by its view dialog (same query).
 */
export function useOpenChanges(collection: ReviewCollection): OpenChanges {
  const list = useReviewChanges({ collection, state: 'open', limit: 100 });
  return openChangesOf(list.data?.pages[0]);
}

/** "Waiting for review" (or "Changes requested"), linking to the change's page. */
export function ReviewBadge({ change, className }: { change: PendingChange; className?: string }) {
  const returned = change.state === 'rejected' || change.state === 'failed';
  const Icon = returned ? MessageSquareWarning : Clock;
  return (
    <Link
      to={`${REVIEW_PATH}/${encodeURIComponent(change.id)}`}
      data-testid="review-badge"
      className={cn(
        'inline-flex w-fit items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ' +
          'hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600',
        returned ? 'bg-red-100 text-red-800' : 'bg-amber-100 text-amber-900',
        className,
      )}
    >
      <Icon className="h-3.5 w-3.5 shrink-0" aria-hidden />
      {returned ? REVIEW_TEXTS.badgeRejected : REVIEW_TEXTS.badge}
    </Link>
  );
}

/** Above a list: how many of its new entries wait for review, linking to the Review page. */
export function NewWaitingNotice({ collection, count }: { collection: ReviewCollection; count: number }) {
  if (count === 0) return null;
  return (
    <p className="mb-4 flex items-center gap-2 rounded-lg border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900">
      <Clock className="h-4 w-4 shrink-0" aria-hidden />
      <Link
        to={`${REVIEW_PATH}?collection=${collection}`}
        className="font-medium underline-offset-2 hover:underline"
        data-testid="new-waiting"
      >
        {REVIEW_TEXTS.newWaiting(count)}
      </Link>
    </p>
  );
}

/** A record's view: when its latest published change skipped review, the reason given for it. */
export function BreakGlassNote({ collection, recordId }: { collection: ReviewCollection; recordId: string }) {
  const list = useReviewChanges({ collection, recordId, state: 'published', limit: 100 });
  const latest = (list.data?.pages[0]?.items ?? []).reduce<PendingChange | null>(
    (newest, c) => (!newest || (c.publishedAt ?? '') > (newest.publishedAt ?? '') ? c : newest),
    null,
  );
  if (!latest?.breakGlassReason) return null;
  const when = latest.publishedAt ? manilaDateTime(new Date(latest.publishedAt)) : '';
  return (
    <p
      className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900"
      data-testid="break-glass-note"
    >
      <ShieldAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <span>{REVIEW_SCREEN.breakGlassNote(latest.publishedBy?.name || REVIEW_SCREEN.nobody, when, latest.breakGlassReason)}</span>
    </p>
  );
}

/** A record's view: its open change's badge, and the reason its last publish skipped review. */
export function RecordReviewNotes({ collection, recordId }: { collection: ReviewCollection; recordId: string }) {
  const open = useOpenChanges(collection).byRecord.get(recordId);
  return (
    <>
      {open && <ReviewBadge change={open} />}
      <BreakGlassNote collection={collection} recordId={recordId} />
    </>
  );
}
