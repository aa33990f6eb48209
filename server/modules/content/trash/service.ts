import type { TrashList, TrashListQuery } from '../../../../common/schemas/trash.js';
import { TRASH, TRASH_LIMITS, trashEntry, type TrashCollection } from '../../../../common/trash.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { nowIso } from '../../../platform/support/clock.js';
import { pageCount } from '../../../platform/http/pages.js';
import type { AppContext } from '../../../platform/http/context.js';
import { runCommand } from '../../../platform/writes/command.js';
import { moveStamps, recordsStamp } from '../../../platform/cache/stamps.js';
import { fail } from '../../../platform/http/errors.js';
import { disarmRestoredAccount } from '../../identity/accounts/index.js';
import { trashRepository, type DeletedRow } from './repository.js';

function present(row: DeletedRow) {
  return {
    id: row.id,
    name: row.name,
    detail: row.detail ?? null,
    photoCount: row.photoCount === null || row.photoCount === undefined ? null : Number(row.photoCount),
    deletedAt: row.deletedAt,
    deletedBy: row.deletedBy ? { id: row.deletedBy, fullname: row.deleterName ?? TRASH.unknownDeleter } : null,
  };
}

/**
 * Trash and restore for the soft-deleted collections (super admin). A restore clears the delete
 * marks, so content (a pest's or disease's photos included: they stay linked while it is
 * deleted) comes back as it was; an account comes back restricted and without its old keys
 * (accounts/disarm.ts). It is audited as RESTORE in the same transaction.
 */
export function createTrashService(ctx: AppContext) {
  const { db } = ctx;

  return {
    async list(collection: TrashCollection, query: TrashListQuery): Promise<TrashList> {
      const pageSize = TRASH_LIMITS.pageSize;
      const { rows, total } = await trashRepository.page(db, collection, query.search, pageSize, (query.page - 1) * pageSize);
      return { items: rows.map(present), total, page: query.page, pageSize, pageCount: pageCount(total, pageSize) };
    },

    async restore(collection: TrashCollection, id: string, actor: Actor): Promise<void> {
      const { noun, uniqueName } = trashEntry(collection);
      await runCommand(ctx, actor, async (trx, cmd) => {
        const row = await trashRepository.findDeleted(trx, collection, id);
        if (!row) fail('NOT_FOUND', TRASH.notInTrash);
        // Content is told apart by name, so a live namesake blocks the restore (accounts keep
        // their usernames and emails reserved while deleted instead).
        if (uniqueName) {
          const other = await trashRepository.liveWithName(trx, collection, row.name, id);
          if (other)
            fail('CONFLICT', TRASH.nameTaken(noun, other.name), undefined, {
              reason: 'name_taken',
              otherId: other.id,
              otherName: other.name,
            });
        }
        const now = nowIso();
        if ((await trashRepository.restore(trx, collection, id, now)) === 0) fail('NOT_FOUND', TRASH.notInTrash);
        await moveStamps(trx, [recordsStamp(collection)]);
        const disarmed = collection === 'accounts' ? await disarmRestoredAccount(trx, cmd, id, now) : {};
        await cmd.audit({
          action: 'RESTORE',
          collection,
          documentId: id,
          documentName: row.name,
          description: TRASH.auditDescription(noun, row.name),
          changes: {
            before: { isDeleted: true, deletedAt: row.deletedAt, deletedBy: row.deletedBy },
            after: { isDeleted: false, deletedAt: null, deletedBy: null, ...disarmed },
          },
        });
        cmd.publish({ topic: collection, id, op: 'restore' });
      });
    },
  };
}
