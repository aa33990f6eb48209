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
/**
 * Moved by the database itself on every row write of the table, by anyone (a trigger, migration
 * 201), with a note of what the row's write changed.
 */
export const tableStamp = (table: 'rice_seed_varieties'): string => `table/${table}`;

/** A stamp with its count of moves (seqs follow the name's commits one by one). */
export interface CountedStamp {
  stamp: string;
  seq: number;
}

export async function readCountedStamp(db: Db, name: string): Promise<CountedStamp> {
  const row = await stampsRepository.one(db, name);
  return { stamp: row?.stamp ?? '', seq: Number(row?.seq ?? 0) };
}

/** More notes than this since a kept value: reading them would cost more than reading again. */
const NOTES_READ = 2048;

/**
 * The notes of the moves after `from` up to `to`, oldest first (JSON, as the trigger wrote them);
 * null when anything may have changed: a move without its notes (more moves than are kept, a
 * database from another history), a note that says so ('null'), or too many to read.
 */
export async function notesBetween(db: Db, name: string, from: CountedStamp, to: CountedStamp): Promise<string[] | null> {
  const missed = to.seq - from.seq;
  if (missed <= 0) return null;
  const notes = await stampsRepository.notes(db, name, from.seq, to.seq, NOTES_READ + 1);
  if (notes.length === 0 || notes.length > NOTES_READ || notes[0]!.seq !== from.seq + 1 || notes[0]!.prev !== from.stamp) return null;
  if (new Set(notes.map((n) => n.seq)).size !== missed || notes.some((n) => n.note === 'null')) return null;
  return notes.map((n) => n.note);
}
