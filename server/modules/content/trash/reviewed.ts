import type { FastifyRequest } from 'fastify';
import { TRASH, trashEntry } from '../../../../common/trash.js';
import { REVIEW_COLLECTIONS, type ReviewCollection } from '../../../../common/review.js';
import { fail } from '../../../platform/http/errors.js';
import type { ReviewedPart } from '../../../platform/writes/review-gate.js';
import { versionedCollection } from '../../publishing/versions/index.js';
import { trashRepository } from './repository.js';
import { createTrashService } from './service.js';

const TRASHED = REVIEW_COLLECTIONS.filter((c): c is Exclude<ReviewCollection, 'maintenance'> => c !== 'maintenance');
type Trashed = (typeof TRASHED)[number];

const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** A deleted variety, pest or disease put back from the trash, as a pending change. */
function reviewed(collection: Trashed): ReviewedPart {
  return {
    collection,
    actions: {
      restore: {
        async propose(ctx, request) {
          const id = idOf(request);
          const row = await trashRepository.findDeleted(ctx.db, collection, id);
          if (!row) fail('NOT_FOUND', TRASH.notInTrash);
          const { noun } = trashEntry(collection);
          const other = await trashRepository.liveWithName(ctx.db, collection, row.name, id);
          if (other)
            fail('CONFLICT', TRASH.nameTaken(noun, other.name), undefined, {
              reason: 'name_taken',
              otherId: other.id,
              otherName: other.name,
            });
          return { recordId: id, recordName: row.name, baseVersion: null, input: { id } };
        },
        apply: (ctx, change, author) => createTrashService(ctx).restore(collection, change.recordId!, author),
        async proposed(ctx, change) {
          const adapter = versionedCollection(ctx, collection);
          const state = (await adapter.current(ctx.db, [change.recordId!])).get(change.recordId!);
          return state?.snapshot ?? null;
        },
      },
    },
  };
}

export default TRASHED.map(reviewed);
