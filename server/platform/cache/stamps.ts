import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { newId } from '../support/clock.js';
import { stampsRepository } from './repository.js';

type Db = Kysely<Database> | Transaction<Database>;
/** Each name's current stamp; a name never written is absent (its stamp reads as ''). */
export type Stamps = ReadonlyMap<string, string>;

/**
 * A stamp is a row of cache_stamps per name, moved by every write of what the name covers in
 * that write's transaction. Every server instance reads the same rows, so a value kept in
 * memory with the stamp it was read at (kept.ts) is current exactly while that stamp is.
 */
export async function moveStamps(trx: Db, names: Iterable<string>): Promise<void> {
  const stamp = newId();
  // In name order, so two transactions moving the same stamps lock their rows in one order.
  for (const name of [...new Set(names)].sort()) {
    await stampsRepository.put(trx, name, stamp);
  }
}

/** Every stamp, in one read of a small table: a request reads them once before any kept value. */
export async function readStamps(db: Db): Promise<Stamps> {
  const rows = await stampsRepository.all(db);
  return new Map(rows.map((r) => [r.name, r.stamp]));
}

export const stampOf = (stamps: Stamps, name: string): string => stamps.get(name) ?? '';
/** One stamp for a value read from what several names cover: it moves when any of theirs does. */
export const stampOfAll = (stamps: Stamps, names: readonly string[]): string => names.map((name) => stampOf(stamps, name)).join('/');

/** Every catalog photo row (pest and disease photos): the photos repository's writes move it. */
export const PHOTOS_STAMP = 'catalog/photos';
/** A catalog collection's records: the catalog service's creates, edits and deletes move it. */
export const recordsStamp = (collection: string): string => `catalog/${collection}`;
