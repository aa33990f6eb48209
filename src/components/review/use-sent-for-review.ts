import { useQueryClient } from '@tanstack/react-query';
import type { Submitted } from '../../../common/schemas/review';
import { REVIEW_SCREEN } from '../../../common/review-screen-texts';
import { reviewKeys, sentForReview } from '../../lib/review';
import { useToast } from '../ui/toast';

/**
 * For a save's dialog: when the save was kept as a pending change (HTTP 202), says so in a
 * notice, refreshes the review count and lists, and gives the change back (null: it was applied).
 * The record itself did not change: nothing of it is updated here.
 */
export function useSentForReview(): (result: unknown) => Submitted | null {
  const toast = useToast();
  const queryClient = useQueryClient();
  return (result) => {
    const submitted = sentForReview(result);
    if (!submitted) return null;
    toast.show(submitted.message, { tone: 'info', durationMs: REVIEW_SCREEN.toastMs });
    void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
    return submitted;
  };
}
