import type { FastifyRequest } from 'fastify';
import { PHOTO_REMOVAL_TEXTS } from '../../../../common/dataset.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import type { ReviewChange, ReviewedAction, ReviewedPart } from '../../../platform/writes/review-gate.js';
import { versionedCollection } from '../../publishing/versions/index.js';
import { createPhotoRemoval } from './removal.js';

const COLLECTION = 'rice_local_diseases' as const;

interface PhotoInput {
  diseaseId: string;
  imageId: string;
}

/** The disease as published now, with its photo list changed as the change would change it. */
async function proposedPhotos(ctx: AppContext, change: ReviewChange, photos: (now: string[], imageId: string) => string[]) {
  const { diseaseId, imageId } = change.input as PhotoInput;
  const adapter = versionedCollection(ctx, COLLECTION);
  const now = (await adapter.current(ctx.db, [diseaseId])).get(diseaseId);
  if (!now) fail('NOT_FOUND');
  return { ...now.snapshot, photos: photos(now.snapshot.photos ?? [], imageId) };
}

const imageIdOf = (request: FastifyRequest) => (request.params as { imageId: string }).imageId;

/**
 * Dataset health's "Remove from this disease" and "Put back" change what the farmer app shows of
 * a disease: where the diseases' changes need review they wait as pending changes like any other
 * save, and publish (on approval, or without review with a written reason) through the removal's
 * own command, on the disease as the reviewer saw it.
 */
function photoAction(kind: 'remove' | 'putBack'): ReviewedAction {
  return {
    async propose(ctx, request, _auth, own) {
      const imageId = imageIdOf(request);
      const diseaseId = kind === 'remove' ? (request.body as { diseaseId: string }).diseaseId : null;
      const plan = await createPhotoRemoval(ctx).plan(kind, imageId, diseaseId);
      // One open change per record: this one would replace the author's waiting edit or removal.
      if (await own(plan.diseaseId)) fail('CONFLICT', PHOTO_REMOVAL_TEXTS.ownPending);
      return {
        recordId: plan.diseaseId,
        recordName: plan.name,
        baseVersion: plan.version,
        input: { diseaseId: plan.diseaseId, imageId } satisfies PhotoInput,
      };
    },
    async apply(ctx, change, author) {
      const { diseaseId, imageId } = change.input as PhotoInput;
      const removal = createPhotoRemoval(ctx);
      if (kind === 'remove') await removal.remove(diseaseId, imageId, author, change.baseVersion);
      else await removal.putBack(imageId, author, change.baseVersion);
    },
    proposed: (ctx, change) =>
      proposedPhotos(ctx, change, (now, imageId) => {
        const others = now.filter((id) => id !== imageId);
        return kind === 'remove' ? others : [...others, imageId];
      }),
  };
}

const part: ReviewedPart = {
  collection: COLLECTION,
  actions: { remove_photo: photoAction('remove'), put_back_photo: photoAction('putBack') },
};

export default [part];
