import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { PHOTO_REMOVAL_TEXTS as T } from '../../../common/dataset.js';
import type { Actor } from '../../platform/writes/audit.js';
import { nowIso } from '../../platform/support/clock.js';
import { runCommand } from '../../platform/writes/command.js';
import type { AppContext } from '../../platform/http/context.js';
import { fail } from '../../platform/http/errors.js';
import { fileUrl } from '../../platform/storage/storage.js';
import { datasetRepository as repo } from './repository.js';
import { recordCurrentVersion } from '../versions/current.js';

const COLLECTION = 'rice_local_diseases';

/** The disease's main image: its first photo's stored file, or its link when it was never fetched. */
async function mainImageOf(trx: Transaction<Database>, diseaseId: string): Promise<string | null> {
  const first = await repo.firstPhoto(trx, diseaseId);
  return first?.originalKey ? fileUrl(first.originalKey) : first?.externalUrl ?? null;
}

/**
 * Takes a photo out of a disease (a copy, a label conflict, a poor photo) and puts it back: each
 * one command with its audit entry on the disease and a live event, the disease's version and
 * main image following. The photo is unlinked, never deleted, so it leaves the training set and
 * the farmer app at once and comes back as it was.
 */
export function createPhotoRemoval(ctx: AppContext) {
  return {
    async remove(diseaseId: string, imageId: string, actor: Actor): Promise<void> {
      await runCommand(ctx, actor, async (trx, cmd) => {
        const disease = await repo.liveDisease(trx, diseaseId);
        const photo = disease ? await repo.photoOf(trx, diseaseId, imageId) : undefined;
        if (!disease || !photo) fail('NOT_FOUND', T.notThere);
        if (await repo.photoCount(trx, diseaseId) <= 1) fail('CONFLICT', T.lastPhoto);
        const now = nowIso();
        if (await repo.unlink(trx, imageId, diseaseId, photo.position, { at: now, actorId: actor.id }) === 0) fail('NOT_FOUND', T.notThere);
        await repo.touchDisease(trx, diseaseId, { mainImageUrl: await mainImageOf(trx, diseaseId), updatedAt: now });
        const auditId = await cmd.audit({
          action: 'UPDATE', collection: COLLECTION, documentId: diseaseId, documentName: disease.name,
          description: T.audit.removed(disease.name), details: { imageId, removedFromPosition: photo.position },
        });
        await recordCurrentVersion(trx, COLLECTION, diseaseId, auditId, actor);
        cmd.publish({ topic: COLLECTION, id: diseaseId, op: 'update' });
      });
    },

    async putBack(imageId: string, actor: Actor): Promise<void> {
      await runCommand(ctx, actor, async (trx, cmd) => {
        const photo = await repo.removedOne(trx, imageId);
        if (!photo) fail('NOT_FOUND', T.notThere);
        const diseaseId = photo.removedFrom!;
        const disease = await repo.liveDisease(trx, diseaseId);
        if (!disease) fail('CONFLICT', T.diseaseGone);
        if (await repo.relink(trx, imageId, diseaseId) === 0) fail('NOT_FOUND', T.notThere);
        await repo.touchDisease(trx, diseaseId, { mainImageUrl: await mainImageOf(trx, diseaseId), updatedAt: nowIso() });
        const auditId = await cmd.audit({
          action: 'RESTORE', collection: COLLECTION, documentId: diseaseId, documentName: disease.name,
          description: T.audit.putBack(disease.name), details: { imageId },
        });
        await recordCurrentVersion(trx, COLLECTION, diseaseId, auditId, actor);
        cmd.publish({ topic: COLLECTION, id: diseaseId, op: 'update' });
      });
    },
  };
}
