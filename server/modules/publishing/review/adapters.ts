import type { ReviewAction, ReviewCollection } from '../../../../common/review.js';
import type { AppContext } from '../../../platform/http/context.js';
import type { ReviewedAction, ReviewedPart } from '../../../platform/writes/review-gate.js';

export interface ReviewedCollection {
  actions: Partial<Record<ReviewAction, ReviewedAction>>;
  preview?: ReviewedPart['preview'];
}

/** The reviewed collections' saves and previews, by collection. */
export type ReviewedCollections = ReadonlyMap<ReviewCollection, ReviewedCollection>;

declare module '../../../platform/http/context.js' {
  interface CollectionAdapters {
    reviewed: ReviewedCollections;
  }
}

/**
 * The collections' reviewed saves and the capabilities' (server/modules/collections.ts), merged
 * by collection here; no module imports review. Two modules
 * reviewing the same save of a collection, or previewing one collection, is a start-up error.
 */
export function reviewedRegistry(parts: readonly ReviewedPart[]): ReviewedCollections {
  const found = new Map<ReviewCollection, ReviewedCollection>();
  for (const part of parts) {
    const entry = found.get(part.collection) ?? { actions: {} };
    for (const [action, adapter] of Object.entries(part.actions ?? {}) as Array<[ReviewAction, ReviewedAction]>) {
      if (entry.actions[action]) throw new Error(`Two modules review ${action} of ${part.collection}`);
      entry.actions[action] = adapter;
    }
    if (part.preview) {
      if (entry.preview) throw new Error(`Two modules preview ${part.collection}`);
      entry.preview = part.preview;
    }
    found.set(part.collection, entry);
  }
  return found;
}

export const reviewedCollections = (ctx: Pick<AppContext, 'collections'>): ReviewedCollections => ctx.collections.reviewed;

export function reviewedAction(ctx: Pick<AppContext, 'collections'>, collection: ReviewCollection, action: ReviewAction): ReviewedAction {
  const adapter = ctx.collections.reviewed.get(collection)?.actions[action];
  if (!adapter)
    throw new Error(`No module reviews ${action} of ${collection}: it needs a reviewed.ts listed in server/modules/collections.ts`);
  return adapter;
}
