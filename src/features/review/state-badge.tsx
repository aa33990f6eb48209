import { REVIEW_TEXTS, type ReviewState } from '../../../common/review';
import { cn } from '../../components/ui/cn';

const TONES: Record<ReviewState, string> = {
  pending: 'bg-amber-100 text-amber-900',
  approved: 'bg-sky-100 text-sky-900',
  rejected: 'bg-red-100 text-red-800',
  published: 'bg-green-100 text-green-800',
  withdrawn: 'bg-slate-100 text-slate-700',
  failed: 'bg-red-100 text-red-800',
};

export function StateBadge({ state }: { state: ReviewState }) {
  return (
    <span
      className={cn('inline-flex whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold', TONES[state])}
      data-testid="review-state"
    >
      {REVIEW_TEXTS.states[state]}
    </span>
  );
}
