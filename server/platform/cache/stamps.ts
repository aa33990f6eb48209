import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { newId } from '../support/clock.js';
import { stampsRepository } from './repository.js';

type Db = Kysely<Database> | Transaction<Database>;
/** Each name's current stamp; a name never written is absent (its stamp reads as ''). */
export type Stamps = ReadonlyMap<string, string>;

/** The names a transaction has written, moved by runCommand as the transaction's last statements. */
const written = new WeakMap<Transaction<Database>, Set<string>>();

async function put(db: Db, names: Iterable<string>): Promise<void> {
  const stamp = newId();
  // In name order, so two transactions moving the same stamps lock their rows in one order.
  for (const name of [...new Set(names)].sort()) {
    await stampsRepository.put(db, name, stamp);
  }
}

/**
 * A stamp is a row of cache_stamps per name, moved by every write of what the name covers in
 * that write's transaction. Every server instance reads the same rows, so a value kept in
 * memory with the stamp it was read at (kept.ts) is current exactly while that stamp is.
 * In a transaction the names are kept and moved when its command's work is done
 * (movePendingStamps): a stamp row is then the last lock a write takes, so a transaction never
 * waits on another lock while holding one, and stamps take no part in a deadlock.
 */
export async function moveStamps(db: Db, names: Iterable<string>): Promise<void> {
  if (!db.isTransaction) return put(db, names);
  const trx = db as Transaction<Database>;
  const kept = written.get(trx) ?? new Set<string>();
  for (const name of names) kept.add(name);
  written.set(trx, kept);
}

/** runCommand, at the end of its work: the stamps its transaction wrote. */
export async function movePendingStamps(trx: Transaction<Database>): Promise<void> {
  const names = written.get(trx);
  if (!names || names.size === 0) return;
  written.delete(trx);
  await put(trx, names);
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
