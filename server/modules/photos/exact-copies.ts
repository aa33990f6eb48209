import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Command } from '../../platform/writes/command.js';
import type { AppContext } from '../../platform/http/context.js';
import { photosRepository, type PhotoRow } from './repository/life.js';
import { deleteImageFiles } from './variants.js';

/**
 * An entry's photo list without new photos that repeat one it already has, byte for byte: a
 * staged photo whose sha256 a kept photo of the list has (an existing one, or a staged one
 * earlier in the list) is left out, and its staged upload discarded. Existing photos are never
 * dropped here. The entry's photo-count rules count what is kept.
 */
export function withoutExactCopies(ids: readonly string[], stagedSha: ReadonlyMap<string, string | null>, existingSha: ReadonlyMap<string, string | null>): { kept: string[]; dropped: string[] } {
  const seen = new Set<string>();
  for (const id of ids) {
    const sha = existingSha.get(id);
    if (sha) seen.add(sha);
  }
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const id of ids) {
    if (!stagedSha.has(id)) { kept.push(id); continue; }
    const sha = stagedSha.get(id);
    if (sha && seen.has(sha)) { dropped.push(id); continue; }
    if (sha) seen.add(sha);
    kept.push(id);
  }
  return { kept, dropped };
}

/** Discards the staged copies a save left out: their rows in the save's transaction, their files after it commits. */
export async function discardCopies(ctx: AppContext, trx: Transaction<Database>, cmd: Command, rows: PhotoRow[]): Promise<void> {
  if (rows.length === 0) return;
  await photosRepository.delete(trx, rows.map((r) => r.id));
  cmd.afterCommit(() => deleteImageFiles(ctx, rows));
}
