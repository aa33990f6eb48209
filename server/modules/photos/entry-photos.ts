import type { Transaction } from 'kysely';
import type { CatalogKind } from '../../../common/catalog.js';
import { UPLOAD_TEXTS } from '../../../common/catalog-texts.js';
import type { Database } from '../../db/types.js';
import type { AppContext } from '../../platform/http/context.js';
import { invalid } from '../../platform/http/errors.js';
import type { Command } from '../../platform/writes/command.js';
import { fileUrl } from '../../platform/storage/storage.js';
import { discardCopies, withoutExactCopies } from './exact-copies.js';
import { linkAndMove, planLinks, undoMoves, type Move, type PhotoLink } from './moves.js';
import { photosRepository as repo, type PhotoRow } from './repository/life.js';
import { deleteImageFiles } from './variants.js';

export interface EntryPhotosRequest {
  kind: CatalogKind;
  /** The entry being edited; null when the save creates it. */
  entryId: string | null;
  entryName: string;
  /** The final list in order: kept photos, new staged ones and, on a restore, former ones. */
  imageIds: readonly string[];
  /** The saver: only their own staged photos may be linked. */
  uploadedBy: string;
  /** The entry's minimum on creation (left out when a restore or an import saves). */
  minimum?: number;
  /** A version restore may bring back photos the entry had; `withRemoved` also those Dataset health took out. */
  former?: { withRemoved: boolean };
}

/** What a save does to an entry's photos, worked out before anything is written. */
export interface EntryPhotosPlan {
  /** The list as saved: exact copies of a kept photo left out. */
  imageIds: string[];
  /** The entry's photos before the save, in order. */
  existing: PhotoRow[];
  /** Photos the save takes out (they become retired). */
  retired: PhotoRow[];
  /** Photos added: new staged ones and former ones brought back. */
  added: number;
  mainImageUrl: string | null;
  readonly staged: PhotoRow[];
  readonly dropped: PhotoRow[];
  readonly former: PhotoRow[];
  readonly links: PhotoLink[];
  readonly positions: Array<{ id: string; position: number }>;
}

/**
 * An entry's photos as one save changes them: `plan` reads and checks the requested list (the
 * saver's own staged photos, exact copies, the kind's limits) and writes nothing; `attach`,
 * inside the same command, makes every change (copies discarded, staged photos linked and their
 * files moved into the entry's folder, kept ones put in order, former ones linked again, left-out
 * ones retired). Files moved by a command that then fails are moved back.
 */
export function entryPhotos(ctx: AppContext) {
  return {
    async plan(trx: Transaction<Database>, request: EntryPhotosRequest): Promise<EntryPhotosPlan> {
      const { kind, entryId } = request;
      const existing = entryId ? await repo.ofEntry(trx, entryId) : [];
      const existingById = new Map(existing.map((r) => [r.id, r]));
      const former = entryId && request.former
        ? (await repo.former(trx, entryId, request.imageIds.filter((id) => !existingById.has(id)))).filter((r) => request.former!.withRemoved || !r.removedFrom)
        : [];
      const formerById = new Map(former.map((r) => [r.id, r]));
      const newIds = request.imageIds.filter((id) => !existingById.has(id) && !formerById.has(id));
      const staged = await repo.stagedOwned(trx, kind.collection, request.uploadedBy, newIds);
      if (staged.length !== newIds.length) invalid({ imageIds: UPLOAD_TEXTS.stagedMissing });
      const { kept: imageIds, dropped } = withoutExactCopies(request.imageIds, new Map(staged.map((r) => [r.id, r.sha256])), new Map([...existing, ...former].map((r) => [r.id, r.sha256])));
      if (request.minimum !== undefined && imageIds.length < request.minimum) invalid({ imageIds: kind.texts.minImages });
      if (entryId && imageIds.length === 0 && existing.length > 0) invalid({ imageIds: UPLOAD_TEXTS.keepOneImage });
      if (imageIds.length > kind.maxImages) invalid({ imageIds: kind.texts.maxImages });

      const links = planLinks(kind, request.entryName, new Map(staged.map((r) => [r.id, r])), imageIds, Date.now());
      const firstId = imageIds[0];
      const first = firstId ? existingById.get(firstId) ?? formerById.get(firstId) : undefined;
      const firstLink = links.find((l) => l.id === firstId);
      const mainImageUrl = first ? (first.originalKey ? fileUrl(first.originalKey) : first.externalUrl) : firstLink ? fileUrl(firstLink.to) : null;
      const positions: Array<{ id: string; position: number }> = [];
      for (const [position, id] of imageIds.entries()) {
        const kept = existingById.get(id);
        if ((kept && kept.position !== position) || formerById.has(id)) positions.push({ id, position });
      }
      const finalIds = new Set(imageIds);
      return {
        imageIds, existing, retired: existing.filter((r) => !finalIds.has(r.id)), added: links.length + former.length, mainImageUrl,
        staged, dropped: staged.filter((r) => dropped.includes(r.id)), former, links, positions,
      };
    },

    async attach(trx: Transaction<Database>, cmd: Command, entryId: string, plan: EntryPhotosPlan, now: string): Promise<void> {
      await discardCopies(ctx, trx, cmd, plan.dropped);
      await repo.relink(trx, entryId, plan.former.map((r) => r.id));
      await repo.setPositions(trx, plan.positions);
      await repo.retire(trx, entryId, plan.retired.map((r) => r.id));
      const moved: Move[] = [];
      cmd.onRollback(() => undoMoves(ctx, moved));
      await linkAndMove(ctx, trx, entryId, plan.links, now, moved);
    },

    /** Deletes retired photos no kept version holds: rows, then files. */
    async deleteUnheld(entryId: string, held: ReadonlySet<string>): Promise<number> {
      const orphans = (await repo.retiredFrom(ctx.db, entryId)).filter((r) => !held.has(r.id));
      if (orphans.length === 0) return 0;
      await repo.delete(ctx.db, orphans.map((r) => r.id));
      await deleteImageFiles(ctx, orphans);
      return orphans.length;
    },
  };
}
