import type { Kysely, Transaction } from 'kysely';
import type { CatalogKind } from '../../../../common/catalog.js';
import type { StagedImage } from '../../../../common/schemas/catalog.js';
import type { Database } from '../../../db/types.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fileUrl } from '../../../platform/storage/storage.js';
import { stagePhoto, type StageOptions } from './intake.js';
import { photosRepository as repo } from './repository/life.js';
import { deleteImageFiles, photoRuntime } from './variants.js';

export type { StageOptions };

/**
 * The photo moves other modules make one photo at a time: an upload staged, staged photos
 * discarded by their uploader, a photo taken out of its entry in Dataset health and put back.
 * Saves of a whole list go through entry-photos.ts.
 */
export function photoLibrary(ctx: AppContext) {
  const runtime = photoRuntime(ctx);
  return {
    /** One upload: checked, cleaned, sized and stored as a staged photo; its variants queued. */
    async stage(kind: CatalogKind, source: AsyncIterable<Buffer>, options: StageOptions, truncated: () => boolean): Promise<StagedImage> {
      const done = runtime.beginUpload();
      try {
        return await stagePhoto(ctx, kind, runtime, source, options, truncated);
      } finally {
        done();
      }
    },

    async discardStaged(kind: CatalogKind, accountId: string, ids: string[]): Promise<number> {
      const rows = await repo.discardable(ctx.db, kind.collection, accountId, ids);
      await repo.delete(
        ctx.db,
        rows.map((r) => r.id),
      );
      await deleteImageFiles(ctx, rows);
      return rows.length;
    },

    /** The entry's main image: its first photo's stored file, or its link when it was never fetched. */
    async mainImageOf(trx: Transaction<Database>, entryId: string): Promise<string | null> {
      const first = await repo.firstOfEntry(trx, entryId);
      return first?.originalKey ? fileUrl(first.originalKey) : (first?.externalUrl ?? null);
    },

    /**
     * Takes a linked photo out of its entry, remembering its place (Dataset health): 'missing' when
     * it is not the entry's, 'last' when it is the entry's only photo.
     */
    async removeFromEntry(
      trx: Transaction<Database>,
      collection: string,
      entryId: string,
      imageId: string,
      by: { at: string; actorId: string },
    ): Promise<{ position: number } | 'missing' | 'last'> {
      const photo = await repo.linkedOne(trx, collection, entryId, imageId);
      if (!photo) return 'missing';
      if ((await repo.countOfEntry(trx, entryId)) <= 1) return 'last';
      if ((await repo.remove(trx, imageId, entryId, photo.position, by)) === 0) return 'missing';
      return { position: photo.position };
    },

    /** Whether removeFromEntry would take the photo out (checked, nothing written). */
    async removable(db: Kysely<Database>, collection: string, entryId: string, imageId: string): Promise<'ok' | 'missing' | 'last'> {
      if (!(await repo.linkedOne(db, collection, entryId, imageId))) return 'missing';
      return (await repo.countOfEntry(db, entryId)) <= 1 ? 'last' : 'ok';
    },

    /** The entry a removed photo was taken out of, if it is a removed photo. */
    removedFrom: async (db: Kysely<Database>, imageId: string): Promise<string | undefined> =>
      (await repo.removedOne(db, imageId))?.removedFrom ?? undefined,

    /** Links a removed photo back to its entry, after the entry's photos; false when it moved meanwhile. */
    putBack: async (trx: Transaction<Database>, imageId: string, entryId: string): Promise<boolean> =>
      (await repo.putBack(trx, imageId, entryId)) > 0,
  };
}
