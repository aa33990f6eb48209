import type { Transaction } from 'kysely';
import type { CatalogKind } from '../../../common/catalog.js';
import { UPLOAD_TEXTS } from '../../../common/catalog-texts.js';
import type { Database } from '../../db/types.js';
import type { AppContext } from '../../platform/http/context.js';
import { fail, invalid } from '../../platform/http/errors.js';
import { clampBytes } from './pixels/image-type.js';
import { moveStored, TargetExistsError } from '../../platform/storage/stored-files.js';
import { safeSegment } from '../../platform/storage/storage.js';
import { photosRepository, type PhotoRow } from './repository/life.js';

export interface Move { from: string; to: string }

export interface PhotoLink { id: string; position: number; from: string; to: string }

function baseName(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

/** SPEC.md section 7: {folder}/{name}/{timestamp}_{index}_{filename}. */
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

export async function undoMoves(ctx: AppContext, done: Move[]): Promise<void> {
  for (const move of [...done].reverse()) {
    await moveStored(ctx.storage, move.to, move.from).catch((err: unknown) => ctx.log.error({ err, move }, 'could not undo a photo move'));
  }
  done.length = 0;
}

/** Where each staged photo of the save goes, in the entry's order. */
export function planLinks(kind: CatalogKind, entryName: string, staged: Map<string, PhotoRow>, ordered: string[], timestamp: number): PhotoLink[] {
  const links: PhotoLink[] = [];
  ordered.forEach((imageId, position) => {
    const row = staged.get(imageId);
    if (!row?.originalKey) return;
    links.push({ id: imageId, position, from: row.originalKey, to: finalKey(kind, entryName, timestamp, position, baseName(row.originalKey)) });
  });
  return links;
}

/**
 * Links photos and moves their originals into the entry's folder, never replacing a file:
 * a name taken already fails the save with 'Please try saving again.' (a new timestamp then).
 */
export async function linkAndMove(ctx: AppContext, trx: Transaction<Database>, entryId: string, links: PhotoLink[], now: string, done: Move[]): Promise<void> {
  for (const link of links) {
    const linked = await photosRepository.link(trx, link.id, { entryId, position: link.position, originalKey: link.to, linkedAt: now });
    if (Number(linked) !== 1) invalid({ imageIds: UPLOAD_TEXTS.stagedMissing });
  }
  try {
    await applyMoves(ctx, links.map(({ from, to }) => ({ from, to })), done);
  } catch (err) {
    if (err instanceof TargetExistsError) fail('CONFLICT', 'Please try saving again.');
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') invalid({ imageIds: UPLOAD_TEXTS.stagedMissing });
    throw err;
  }
}
