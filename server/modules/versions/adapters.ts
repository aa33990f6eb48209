import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Kysely, Transaction } from 'kysely';
import type { Role } from '../../../common/permissions.js';
import type { VersionRestoreInput } from '../../../common/schemas/versions.js';
import type { VersionCollection } from '../../../common/versions.js';
import type { Database } from '../../db/types.js';
import type { AppContext } from '../../platform/http/context.js';
import type { Actor } from '../../platform/writes/audit.js';
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
 * `versioned.ts` (default export: its adapters). Versions imports none of those modules: it
 * finds the files by folder (a module's versioned.ts imports versions, so versions cannot import it).
 */
export interface VersionedCollection {
  collection: VersionCollection;
  /** The stored records among `ids` as snapshots, with their edit versions (records not stored are left out). */
  current(db: Db, ids: readonly string[]): Promise<Map<string, { snapshot: Snapshot; recordVersion: number }>>;
  /**
   * The restorer of one app: saves a version again through the collection's own service (its
   * checks, its 409, its audit entry). Returns how many of the version's photos are gone.
   */
  restorer(ctx: AppContext): { restore(request: RestoreRequest): Promise<number>; close?(): Promise<void> | void };
}

let loading: Promise<Map<VersionCollection, VersionedCollection>> | null = null;

async function load(): Promise<Map<VersionCollection, VersionedCollection>> {
  const modules = path.resolve(import.meta.dirname, '..');
  const found = new Map<VersionCollection, VersionedCollection>();
  for (const area of fs.readdirSync(modules, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    const file = ['versioned.ts', 'versioned.js'].map((f) => path.join(modules, area, f)).find((f) => fs.existsSync(f));
    if (!file) continue;
    const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { default: VersionedCollection[] };
    for (const adapter of mod.default) {
      if (found.has(adapter.collection)) throw new Error(`Two modules version ${adapter.collection}`);
      found.set(adapter.collection, adapter);
    }
  }
  return found;
}

/** Every versioned collection's adapter, loaded once. */
export function versionedCollections(): Promise<Map<VersionCollection, VersionedCollection>> {
  loading ??= load().catch((err: unknown) => { loading = null; throw err; });
  return loading;
}

export async function versionedCollection(collection: VersionCollection): Promise<VersionedCollection> {
  const adapter = (await versionedCollections()).get(collection);
  if (!adapter) throw new Error(`No module versions ${collection}: it needs a versioned.ts`);
  return adapter;
}
