import type { Kysely, Transaction } from 'kysely';
import type { CatalogKind } from '../../../../common/catalog.js';
import { UPLOAD_TEXTS } from '../../../../common/catalog-texts.js';
import type { Database } from '../../../db/types.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail, invalid } from '../../../platform/http/errors.js';
import type { Command } from '../../../platform/writes/command.js';
import { moveStored, TargetExistsError } from '../../../platform/storage/stored-files.js';
import { fileUrl, safeSegment } from '../../../platform/storage/storage.js';
import { clampBytes } from './pixels/image-type.js';
import { photosRepository as repo, type PhotoRow } from './repository/life.js';
import { deleteImageFiles } from './variants.js';

type Db = Kysely<Database> | Transaction<Database>;

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
    /** The entry's photos in its order. */
    ofEntry: (entryId: string, db: Db = ctx.db): Promise<PhotoRow[]> => repo.ofEntry(db, entryId),
    countOfEntry: (db: Db, entryId: string): Promise<number> => repo.countOfEntry(db, entryId),

    async plan(trx: Db, request: EntryPhotosRequest): Promise<EntryPhotosPlan> {
      const { kind, entryId } = request;
      const existing = entryId ? await repo.ofEntry(trx, entryId) : [];
      const existingById = new Map(existing.map((r) => [r.id, r]));
      const former =
        entryId && request.former
          ? (
              await repo.former(
                trx,
                entryId,
                request.imageIds.filter((id) => !existingById.has(id)),
              )
            ).filter((r) => request.former!.withRemoved || !r.removedFrom)
          : [];
      const formerById = new Map(former.map((r) => [r.id, r]));
      const newIds = request.imageIds.filter((id) => !existingById.has(id) && !formerById.has(id));
      const staged = await repo.stagedOwned(trx, kind.collection, request.uploadedBy, newIds);
      if (staged.length !== newIds.length) invalid({ imageIds: UPLOAD_TEXTS.stagedMissing });
      const { kept: imageIds, dropped } = withoutExactCopies(
        request.imageIds,
        new Map(staged.map((r) => [r.id, r.sha256])),
        new Map([...existing, ...former].map((r) => [r.id, r.sha256])),
      );
      if (request.minimum !== undefined && imageIds.length < request.minimum) invalid({ imageIds: kind.texts.minImages });
      if (entryId && imageIds.length === 0 && existing.length > 0) invalid({ imageIds: UPLOAD_TEXTS.keepOneImage });
      if (imageIds.length > kind.maxImages) invalid({ imageIds: kind.texts.maxImages });

      const links = planLinks(kind, request.entryName, new Map(staged.map((r) => [r.id, r])), imageIds, Date.now());
      const firstId = imageIds[0];
      const first = firstId ? (existingById.get(firstId) ?? formerById.get(firstId)) : undefined;
      const firstLink = links.find((l) => l.id === firstId);
      const mainImageUrl = first
        ? first.originalKey
          ? fileUrl(first.originalKey)
          : first.externalUrl
        : firstLink
          ? fileUrl(firstLink.to)
          : null;
      const positions: Array<{ id: string; position: number }> = [];
      for (const [position, id] of imageIds.entries()) {
        const kept = existingById.get(id);
        if ((kept && kept.position !== position) || formerById.has(id)) positions.push({ id, position });
      }
      const finalIds = new Set(imageIds);
      return {
        imageIds,
        existing,
        retired: existing.filter((r) => !finalIds.has(r.id)),
        added: links.length + former.length,
        mainImageUrl,
        staged,
        dropped: staged.filter((r) => dropped.includes(r.id)),
        former,
        links,
        positions,
      };
    },

    async attach(trx: Transaction<Database>, cmd: Command, entryId: string, plan: EntryPhotosPlan, now: string): Promise<void> {
      await discardCopies(ctx, trx, cmd, plan.dropped);
      await repo.relink(
        trx,
        entryId,
        plan.former.map((r) => r.id),
      );
      await repo.setPositions(trx, plan.positions);
      await repo.retire(
        trx,
        entryId,
        plan.retired.map((r) => r.id),
      );
      const moved: Move[] = [];
      cmd.onRollback(() => undoMoves(ctx, moved));
      await linkAndMove(ctx, trx, entryId, plan.links, now, moved);
    },

    /**
     * The entry's photos put in the order `reorder` makes of their ids (each id once); their
     * places are written 0, 1, 2… where a photo's place changed, and the main image follows the
     * first. The caller holds the entry's row (its version moved first in the same command), so
     * two reorders of one entry never interleave.
     */
    async reorder(
      trx: Transaction<Database>,
      entryId: string,
      reorder: (ids: string[]) => string[],
    ): Promise<{ before: PhotoRow[]; after: PhotoRow[]; mainImageUrl: string | null }> {
      const before = await repo.ofEntry(trx, entryId);
      const ids = reorder(before.map((r) => r.id));
      const byId = new Map(before.map((r) => [r.id, r]));
      if (ids.length !== before.length || new Set(ids).size !== ids.length || ids.some((id) => !byId.has(id)))
        throw new Error('a reorder names every photo of the entry once');
      const positions = ids.flatMap((id, position) => (byId.get(id)!.position === position ? [] : [{ id, position }]));
      await repo.setPositions(trx, positions);
      const after = ids.map((id, position) => ({ ...byId.get(id)!, position }));
      const first = after[0];
      return { before, after, mainImageUrl: first ? (first.originalKey ? fileUrl(first.originalKey) : first.externalUrl) : null };
    },

    /** Deletes retired photos no kept version holds: rows, then files. */
    async deleteUnheld(entryId: string, held: ReadonlySet<string>): Promise<number> {
      const orphans = (await repo.retiredFrom(ctx.db, entryId)).filter((r) => !held.has(r.id));
      if (orphans.length === 0) return 0;
      await repo.delete(
        ctx.db,
        orphans.map((r) => r.id),
      );
      await deleteImageFiles(ctx, orphans);
      return orphans.length;
    },
  };
}

// Exact copies: a byte-for-byte repeat of a kept photo is left out of the list.

/**
 * An entry's photo list without new photos that repeat one it already has, byte for byte: a
 * staged photo whose sha256 a kept photo of the list has (an existing one, or a staged one
 * earlier in the list) is left out, and its staged upload discarded. Existing photos are never
 * dropped here. The entry's photo-count rules count what is kept.
 */
function withoutExactCopies(
  ids: readonly string[],
  stagedSha: ReadonlyMap<string, string | null>,
  existingSha: ReadonlyMap<string, string | null>,
): { kept: string[]; dropped: string[] } {
  const seen = new Set<string>();
  for (const id of ids) {
    const sha = existingSha.get(id);
    if (sha) seen.add(sha);
  }
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const id of ids) {
    if (!stagedSha.has(id)) {
      kept.push(id);
      continue;
    }
    const sha = stagedSha.get(id);
    if (sha && seen.has(sha)) {
      dropped.push(id);
      continue;
    }
    if (sha) seen.add(sha);
    kept.push(id);
  }
  return { kept, dropped };
}

/** Discards the staged copies a save left out: their rows in the save's transaction, their files after it commits. */
async function discardCopies(ctx: AppContext, trx: Transaction<Database>, cmd: Command, rows: PhotoRow[]): Promise<void> {
  if (rows.length === 0) return;
  await repo.delete(
    trx,
    rows.map((r) => r.id),
  );
  cmd.afterCommit(() => deleteImageFiles(ctx, rows));
}

// Moves: a save's staged photos into the entry's folder, undone when the save fails.

interface Move {
  from: string;
  to: string;
}

interface PhotoLink {
  id: string;
  position: number;
  from: string;
  to: string;
}

function baseName(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

/** docs/PRODUCT.md section 7: {folder}/{name}/{timestamp}_{index}_{filename}. */
function finalKey(kind: CatalogKind, entryName: string, timestamp: number, index: number, fileName: string): string {
  return `${kind.folder}/${clampBytes(safeSegment(entryName, kind.kind), 150)}/${timestamp}_${index}_${fileName}`;
}

/** Moves in flight at once: a local move is a hard link, a bucket's a copy and a delete over the network. */
const MOVE_CONCURRENCY_REMOTE = 8;

/**
 * Moves files as the last step of a save; records each move so a failed save can undo them.
 * On a bucket several run at once; after a failure the ones under way finish, then it throws.
 */
async function applyMoves(ctx: AppContext, moves: Move[], done: Move[]): Promise<void> {
  const parallel = ctx.storage.copy ? MOVE_CONCURRENCY_REMOTE : 1;
  let next = 0;
  let failure: { err: unknown } | null = null;
  async function worker(): Promise<void> {
    while (!failure) {
      const move = moves[next++];
      if (!move) return;
      try {
        await moveStored(ctx.storage, move.from, move.to);
        done.push(move);
      } catch (err) {
        failure ??= { err };
      }
    }
  }
  await Promise.all(Array.from({ length: parallel }, worker));
  if (failure) throw (failure as { err: unknown }).err;
}

async function undoMoves(ctx: AppContext, done: Move[]): Promise<void> {
  for (const move of [...done].reverse()) {
    await moveStored(ctx.storage, move.to, move.from).catch((err: unknown) => ctx.log.error({ err, move }, 'could not undo a photo move'));
  }
  done.length = 0;
}

/** Where each staged photo of the save goes, in the entry's order. */
function planLinks(kind: CatalogKind, entryName: string, staged: Map<string, PhotoRow>, ordered: string[], timestamp: number): PhotoLink[] {
  const links: PhotoLink[] = [];
  ordered.forEach((imageId, position) => {
    const row = staged.get(imageId);
    if (!row?.originalKey) return;
    links.push({
      id: imageId,
      position,
      from: row.originalKey,
      to: finalKey(kind, entryName, timestamp, position, baseName(row.originalKey)),
    });
  });
  return links;
}

/**
 * Links photos and moves their originals into the entry's folder, never replacing a file:
 * a name taken already fails the save with 'Please try saving again.' (a new timestamp then).
 */
async function linkAndMove(
  ctx: AppContext,
  trx: Transaction<Database>,
  entryId: string,
  links: PhotoLink[],
  now: string,
  done: Move[],
): Promise<void> {
  for (const link of links) {
    const linked = await repo.link(trx, link.id, { entryId, position: link.position, originalKey: link.to, linkedAt: now });
    if (Number(linked) !== 1) invalid({ imageIds: UPLOAD_TEXTS.stagedMissing });
  }
  try {
    await applyMoves(
      ctx,
      links.map(({ from, to }) => ({ from, to })),
      done,
    );
  } catch (err) {
    if (err instanceof TargetExistsError) fail('CONFLICT', 'Please try saving again.');
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') invalid({ imageIds: UPLOAD_TEXTS.stagedMissing });
    throw err;
  }
}
