import type { Kysely, Transaction } from 'kysely';
import type { Role } from '../../../../common/permissions.js';
import type { VersionRestoreInput } from '../../../../common/schemas/versions.js';
import { VERSION_COLLECTIONS, type VersionCollection } from '../../../../common/versions.js';
import type { Database } from '../../../db/types.js';
import type { AppContext } from '../../../platform/http/context.js';
import type { Actor } from '../../../platform/writes/audit.js';
import type { Snapshot } from './snapshots.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A version restore as the collection's own service is asked to make it. */
export interface RestoreRequest {
  id: string;
  /** The version being restored: its number and saved state. */
  number: number;
  snapshot: Snapshot;
  input: VersionRestoreInput;
  actor: Actor;
  role: Role;
}

/**
 * What versions needs of a versioned collection, supplied by the collection's module in its
 * `versioned.ts` and named in the collection's definition (server/modules/collections.ts).
 * Versions imports none of those modules: it is handed them as ctx.collections.versioned.
 */
export interface VersionedCollection {
  collection: VersionCollection;
  /** The stored records among `ids` as snapshots, with their edit versions (records not stored are left out). */
  current(db: Db, ids: readonly string[]): Promise<Map<string, { snapshot: Snapshot; recordVersion: number }>>;
  /**
   * Saves a version again through the collection's own service (its checks, its 409, its audit
   * entry). `ctx` is the restore's open command (command.ts inCommand). Returns how many of the
   * version's photos are gone.
   */
  restore(ctx: AppContext, request: RestoreRequest): Promise<number>;
}

/** The versioned collections' adapters, by collection. */
export type VersionedCollections = ReadonlyMap<VersionCollection, VersionedCollection>;

declare module '../../../platform/http/context.js' {
  interface CollectionAdapters {
    versioned: VersionedCollections;
  }
}

/** The definitions' adapters by collection; a versioned collection without one, or two for one, is a start-up error. */
export function versionedRegistry(adapters: readonly VersionedCollection[]): VersionedCollections {
  const found = new Map<VersionCollection, VersionedCollection>();
  for (const adapter of adapters) {
    if (found.has(adapter.collection)) throw new Error(`Two modules version ${adapter.collection}`);
    found.set(adapter.collection, adapter);
  }
  const missing = VERSION_COLLECTIONS.find((c) => !found.has(c));
  if (missing) throw new Error(`No module versions ${missing}: its definition in server/modules/collections.ts needs a versioned adapter`);
  return found;
}

export function versionedCollection(ctx: Pick<AppContext, 'collections'>, collection: VersionCollection): VersionedCollection {
  const adapter = ctx.collections.versioned.get(collection);
  if (!adapter) throw new Error(`No module versions ${collection}`);
  return adapter;
}
