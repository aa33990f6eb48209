import type { Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';
import { PHOTO_REMOVAL_TEXTS as T } from '../../../../common/dataset.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { nowIso } from '../../../platform/support/clock.js';
import { runCommand } from '../../../platform/writes/command.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { photoLibrary } from '../photos/index.js';
import { datasetRepository as repo } from './repository.js';
import { recordCurrentVersion } from '../../publishing/versions/index.js';

const COLLECTION = 'rice_local_diseases';

/**
 * Takes a photo out of a disease (a copy, a label conflict, a poor photo) and puts it back: each
 * one command with its audit entry on the disease and a live event, the disease's version and
 * main image following. The photo is unlinked, never deleted, so it leaves the training set and
 * the farmer app at once and comes back as it was.
 */
export function createPhotoRemoval(ctx: AppContext) {
  const photos = photoLibrary(ctx);
  const touch = async (trx: Transaction<Database>, diseaseId: string, now: string) =>
    repo.touchDisease(trx, diseaseId, { mainImageUrl: await photos.mainImageOf(trx, diseaseId), updatedAt: now });
  return {
    /**
     * What a remove or a put back would do, checked and nothing written (the pending change of a
     * disease whose changes need review): the disease as it is, and the photo.
     */
    async plan(
      kind: 'remove' | 'putBack',
      imageId: string,
      diseaseId: string | null,
    ): Promise<{ diseaseId: string; name: string; version: number }> {
      const { db } = ctx;
      const id = kind === 'remove' ? diseaseId! : await photos.removedFrom(db, imageId);
      if (!id) fail('NOT_FOUND', T.notThere);
      const disease = await repo.liveDisease(db, id);
      if (!disease) fail(kind === 'remove' ? 'NOT_FOUND' : 'CONFLICT', kind === 'remove' ? T.notThere : T.diseaseGone);
      if (kind === 'remove') {
        const removable = await photos.removable(db, COLLECTION, id, imageId);
        if (removable === 'missing') fail('NOT_FOUND', T.notThere);
        if (removable === 'last') fail('CONFLICT', T.lastPhoto);
      }
      return { diseaseId: id, name: disease.name, version: Number(disease.version) };
    },

    async remove(diseaseId: string, imageId: string, actor: Actor, baseVersion: number | null = null): Promise<void> {
      await runCommand(ctx, actor, async (trx, cmd) => {
        const disease = await repo.liveDisease(trx, diseaseId);
        if (!disease) fail('NOT_FOUND', T.notThere);
        // A reviewed change publishes only on the disease as its reviewer saw it.
        if (baseVersion !== null && Number(disease.version) !== baseVersion) fail('VERSION_CONFLICT');
        const now = nowIso();
        const photo = await photos.removeFromEntry(trx, COLLECTION, diseaseId, imageId, { at: now, actorId: actor.id });
        if (photo === 'missing') fail('NOT_FOUND', T.notThere);
        if (photo === 'last') fail('CONFLICT', T.lastPhoto);
        await touch(trx, diseaseId, now);
        const auditId = await cmd.audit({
          action: 'UPDATE',
          collection: COLLECTION,
          documentId: diseaseId,
          documentName: disease.name,
          description: T.audit.removed(disease.name),
          details: { imageId, removedFromPosition: photo.position },
        });
        await recordCurrentVersion(ctx, trx, COLLECTION, diseaseId, auditId, actor);
        cmd.publish({ topic: COLLECTION, id: diseaseId, op: 'update' });
      });
    },

    async putBack(imageId: string, actor: Actor, baseVersion: number | null = null): Promise<void> {
      await runCommand(ctx, actor, async (trx, cmd) => {
        const diseaseId = await photos.removedFrom(trx, imageId);
        if (!diseaseId) fail('NOT_FOUND', T.notThere);
        const disease = await repo.liveDisease(trx, diseaseId);
        if (!disease) fail('CONFLICT', T.diseaseGone);
        if (baseVersion !== null && Number(disease.version) !== baseVersion) fail('VERSION_CONFLICT');
        if (!(await photos.putBack(trx, imageId, diseaseId))) fail('NOT_FOUND', T.notThere);
        await touch(trx, diseaseId, nowIso());
        const auditId = await cmd.audit({
          action: 'RESTORE',
          collection: COLLECTION,
          documentId: diseaseId,
          documentName: disease.name,
          description: T.audit.putBack(disease.name),
          details: { imageId },
        });
        await recordCurrentVersion(ctx, trx, COLLECTION, diseaseId, auditId, actor);
        cmd.publish({ topic: COLLECTION, id: diseaseId, op: 'update' });
      });
    },
  };
}
