import type { Role } from '../../../../common/permissions.js';
import { maintenanceDocIdSchema } from '../../../../common/schemas/maintenance.js';
import type { VersionRestoreInput, VersionRestoreResult } from '../../../../common/schemas/versions.js';
import type { VersionCollection } from '../../../../common/versions.js';
import type { Actor } from '../../../platform/writes/audit.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { inCommand, runCommand } from '../../../platform/writes/command.js';
import { versionedCollection } from './adapters.js';
import { versionsRepository as repo } from './repository.js';
import { parseSnapshot } from './snapshots.js';

/**
 * Restore this version: one command, by the restorer, in which the record is checked to be the
 * one the panel read and is saved again through its own service, by the adapter its collection's
 * definition names (the same checks, the same 409 when someone saved since, one RESTORE_VERSION
 * audit entry, live events). Values no longer in their option lists are named; the request's
 * replacements choose current ones.
 */
export function createVersionRestore(ctx: AppContext) {
  return {
    async restore(
      collection: VersionCollection,
      id: string,
      number: number,
      input: VersionRestoreInput,
      actor: Actor,
      role: Role,
    ): Promise<VersionRestoreResult> {
      if (collection === 'maintenance' && !maintenanceDocIdSchema.safeParse(id).success) fail('NOT_FOUND');
      const version = await repo.find(ctx.db, collection, id, number);
      if (!version) fail('NOT_FOUND');
      const adapter = versionedCollection(ctx, collection);
      const snapshot = parseSnapshot(version.snapshot);
      return runCommand(ctx, actor, async (trx, cmd) => {
        // Someone saved since the panel was read: 409, as an edit gets.
        const current = await repo.liveRecordVersion(trx, collection, id);
        if (current === undefined) fail('NOT_FOUND');
        if (current !== input.version) fail('VERSION_CONFLICT', undefined, undefined, { currentVersion: current });
        const photosMissing = await adapter.restore(inCommand(ctx, { trx, cmd }), { id, number, snapshot, input, actor, role });
        const latest = await repo.latest(trx, collection, id);
        const recordVersion = await repo.liveRecordVersion(trx, collection, id);
        return { number: latest?.number ?? number, recordVersion: recordVersion ?? input.version + 1, photosMissing };
      });
    },
  };
}
