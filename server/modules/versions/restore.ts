import type { Role } from '../../../common/permissions.js';
import { maintenanceDocIdSchema } from '../../../common/schemas/maintenance.js';
import type { VersionRestoreInput, VersionRestoreResult } from '../../../common/schemas/versions.js';
import type { VersionCollection } from '../../../common/versions.js';
import type { Actor } from '../../platform/writes/audit.js';
import type { AppContext } from '../../platform/http/context.js';
import { fail } from '../../platform/http/errors.js';
import { versionedCollections, type VersionedCollection } from './adapters.js';
import { versionsRepository as repo } from './repository.js';
import { parseSnapshot } from './snapshots.js';

type Restorer = ReturnType<VersionedCollection['restorer']>;

/**
 * Restore this version: the record is saved again through its own service, by the adapter its
 * module registers (the same checks, the same 409 when someone saved since, one RESTORE_VERSION
 * audit entry, live events). Values no longer in their option lists are named; the request's
 * replacements choose current ones.
 */
export function createVersionRestore(ctx: AppContext) {
  // One restorer per collection, made at the first restore (the promise is kept, so two first
  // restores at once share it).
  const restorers = new Map<VersionCollection, Promise<Restorer>>();

  function restorerOf(collection: VersionCollection): Promise<Restorer> {
    let restorer = restorers.get(collection);
    if (!restorer) {
      restorer = versionedCollections().then((adapters) => {
        const adapter = adapters.get(collection);
        if (!adapter) fail('NOT_FOUND');
        return adapter.restorer(ctx);
      });
      restorers.set(collection, restorer);
    }
    return restorer;
  }

  /** Someone saved since the panel was read: 409, as an edit gets. */
  async function assertCurrent(collection: VersionCollection, id: string, version: number): Promise<void> {
    const current = await repo.liveRecordVersion(ctx.db, collection, id);
    if (current === undefined) fail('NOT_FOUND');
    if (current !== version) fail('VERSION_CONFLICT', undefined, undefined, { currentVersion: current });
  }

  return {
    async restore(collection: VersionCollection, id: string, number: number, input: VersionRestoreInput, actor: Actor, role: Role): Promise<VersionRestoreResult> {
      if (collection === 'maintenance' && !maintenanceDocIdSchema.safeParse(id).success) fail('NOT_FOUND');
      const version = await repo.find(ctx.db, collection, id, number);
      if (!version) fail('NOT_FOUND');
      await assertCurrent(collection, id, input.version);
      const snapshot = parseSnapshot(version.snapshot);
      const photosMissing = await (await restorerOf(collection)).restore({ id, number, snapshot, input, actor, role });
      const latest = await repo.latest(ctx.db, collection, id);
      const recordVersion = await repo.liveRecordVersion(ctx.db, collection, id);
      return { number: latest?.number ?? number, recordVersion: recordVersion ?? input.version + 1, photosMissing };
    },

    async close(): Promise<void> {
      for (const restorer of restorers.values()) await (await restorer.catch(() => null))?.close?.();
    },
  };
}
