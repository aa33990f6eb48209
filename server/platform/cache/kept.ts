import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

/**
 * Values kept in memory, each with the stamp (stamps.ts) it was read at: a get with the current
 * stamp answers the kept value, any other stamp reads it again. Kept per database handle, so the
 * services of one process (routes, seed, tests) share one copy and two apps on two databases
 * never see each other's.
 */
export interface Kept<V> {
  get(key: string, stamp: string, load: () => Promise<V>): Promise<V>;
}

const registries = new WeakMap<Kysely<Database>, Map<string, unknown>>();

/** The one `name` of this database handle: made on first use, then the same object. */
export function perDatabase<T>(db: Kysely<Database>, name: string, make: () => T): T {
  let mine = registries.get(db);
  if (!mine) registries.set(db, (mine = new Map()));
  if (!mine.has(name)) mine.set(name, make());
  return mine.get(name) as T;
}

/** The kept values `name` of this database, at most `maxEntries` keys (the least recently used go first). */
export function keptValues<V>(db: Kysely<Database>, name: string, maxEntries = 100): Kept<V> {
  return perDatabase(db, `kept:${name}`, () => createKept<V>(maxEntries));
}

function createKept<V>(maxEntries: number): Kept<V> {
  // A load under way is kept too: concurrent gets at one stamp share one read.
  const entries = new Map<string, { stamp: string; value: Promise<V> }>();
  return {
    get(key, stamp, load) {
      const hit = entries.get(key);
      entries.delete(key);
      if (hit && hit.stamp === stamp) {
        entries.set(key, hit);
        return hit.value;
      }
      const value = load();
      const entry = { stamp, value };
      entries.set(key, entry);
      value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return value;
    },
  };
}

const derivations = new WeakMap<object, Map<string, unknown>>();

/** A value made from a kept one (its JSON, an index of it): made once, and dropped with it. */
export function derivedFrom<T>(source: object, name: string, make: () => T): T {
  let mine = derivations.get(source);
  if (!mine) derivations.set(source, (mine = new Map()));
  if (!mine.has(name)) mine.set(name, make());
  return mine.get(name) as T;
}
