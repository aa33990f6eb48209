import type { FastifyRequest } from 'fastify';
import { MAINTENANCE } from '../../../../common/maintenance.js';
import { ACCOUNT_ENUMS_ID, maintenanceDocIdSchema, type ListKey, type SaveListsInput } from '../../../../common/schemas/maintenance.js';
import type { ReviewChange, ReviewedPart } from '../../../platform/writes/review-gate.js';
import { maintenanceSnapshot } from './lists.js';
import { maintenanceRepository } from './repository.js';
import { createMaintenanceService } from './service.js';

interface SaveInput {
  docId: string;
  lists: SaveListsInput['lists'];
}

/** Which change the route makes: Save Changes (PUT), Add (POST …/lists/:list) or Remove (DELETE …/lists/:list?value=). */
function changeOf(request: FastifyRequest) {
  const params = request.params as { list?: ListKey };
  if (request.method === 'PUT') return { save: request.body as SaveListsInput };
  if (request.method === 'POST') return { add: params.list!, value: (request.body as { value: string }).value };
  return { remove: params.list!, value: (request.query as { value: string }).value };
}

/**
 * The option lists the farmer app shows (variety and disease lists) as pending changes: an
 * add, remove or save proposes the document's lists after it, and is published by Save Changes
 * at the version it was based on. The security questions reach no farmer: never reviewed.
 */
export const optionListsReviewed: ReviewedPart = {
  collection: 'maintenance',
  actions: {
    save: {
      async propose(ctx, request, _auth, own) {
        const docId = maintenanceDocIdSchema.parse((request.params as { docId: string }).docId);
        if (docId === ACCOUNT_ENUMS_ID) return null;
        // An add or remove builds on the author's own change still waiting (two adds in a row keep both).
        const open = await own(docId);
        const from = open?.action === 'save' ? (open.input as SaveInput).lists : undefined;
        const proposal = await createMaintenanceService(ctx).proposal(docId, changeOf(request), from);
        // Nothing to change: against the published lists the route changes nothing either; against
        // the author's waiting change, it stays as it is (never applied past review).
        if (!proposal)
          return open
            ? { recordId: docId, recordName: MAINTENANCE.audit.names[docId], baseVersion: open.baseVersion, input: open.input }
            : null;
        return {
          recordId: docId,
          recordName: MAINTENANCE.audit.names[docId],
          baseVersion: proposal.version,
          input: { docId, lists: proposal.lists } satisfies SaveInput,
        };
      },
      async apply(ctx, change, author) {
        const { docId, lists } = change.input as SaveInput;
        await createMaintenanceService(ctx).save(author, maintenanceDocIdSchema.parse(docId), { version: change.baseVersion ?? 0, lists });
      },
      async proposed(ctx, change: ReviewChange) {
        const { docId, lists } = change.input as SaveInput;
        const id = maintenanceDocIdSchema.parse(docId);
        const row = await maintenanceRepository.find(ctx.db, id);
        return maintenanceSnapshot(id, { data: { ...(row?.data ?? {}), ...lists } });
      },
    },
  },
};
