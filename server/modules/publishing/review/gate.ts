import { REVIEW_COLLECTIONS, REVIEW_TEXTS, type ReviewCollection } from '../../../../common/review.js';
import type { AppContext } from '../../../platform/http/context.js';
import { requireAuth } from '../../../platform/http/policy.js';
import type { ReviewGate } from '../../../platform/writes/review-gate.js';
import { reviewedAction } from './adapters.js';
import { changeOf } from './presenter.js';
import { reviewRepository as repo } from './repository.js';
import type { createReviewService } from './service.js';

const isReviewed = (collection: string): collection is ReviewCollection => (REVIEW_COLLECTIONS as readonly string[]).includes(collection);

/**
 * The gate every reviewed route passes: with its collection's review on, the save's own checks
 * run (by the collection's adapter), the save is kept as a pending change, and the route answers
 * 202 with it. The record and the farmer app keep the published state.
 */
export function createReviewGate(ctx: AppContext, service: ReturnType<typeof createReviewService>): ReviewGate {
  return {
    async intercept(request, reply, route) {
      const collection =
        typeof route.collection === 'function' ? route.collection(request.params as Record<string, string>) : route.collection;
      if (!isReviewed(collection) || !(await repo.isEnabled(ctx.db, collection))) return false;
      const auth = requireAuth(request);
      const adapter = reviewedAction(ctx, collection, route.action);
      const own = async (recordId: string) => {
        const open = await repo.openOfRecord(ctx.db, collection, recordId);
        return open && open.authorId === auth.user.id ? changeOf(open) : null;
      };
      if (!adapter.propose) throw new Error(`${route.action} of ${collection} is submitted by its module, not through a route`);
      const proposal = await adapter.propose(ctx, request, auth, own);
      if (!proposal) return false;
      const review = await service.submit(collection, route.action, proposal, auth);
      await reply.code(202).send({ review, message: REVIEW_TEXTS.sentForReview });
      return true;
    },
    reviewed: (collection) => (isReviewed(collection) ? repo.isEnabled(ctx.db, collection) : Promise.resolve(false)),
    submit: (request, items, alongside) => service.submitMany(items, requireAuth(request), alongside),
    submitWhereReviewed: (request, items, alongside) =>
      service.submitWhereReviewed(
        items.filter((i) => isReviewed(i.collection)),
        requireAuth(request),
        (trx, cmd, unreviewed) =>
          alongside(trx, cmd, [...unreviewed, ...items.filter((i) => !isReviewed(i.collection)).map((i) => i.collection)]),
      ),
  };
}
