import type { FastifyRequest } from 'fastify';
import { MAINTENANCE } from '../../../../common/maintenance.js';
import { maintenanceDocIdSchema } from '../../../../common/schemas/maintenance.js';
import type { VersionRestoreInput } from '../../../../common/schemas/versions.js';
import { VERSION_COLLECTIONS, type VersionCollection } from '../../../../common/versions.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import type { ReviewChange, ReviewedPart } from '../../../platform/writes/review-gate.js';
import { versionedCollection } from './adapters.js';
import { versionsRepository as repo } from './repository.js';
import { candidate } from './restore-checks.js';
import { createVersionRestore } from './restore.js';
import { parseSnapshot } from './snapshots.js';

interface RestoreInput {
  id: string;
  number: number;
  replacements: VersionRestoreInput['replacements'];
}

function target(collection: VersionCollection, request: FastifyRequest): { id: string; number: number } {
  const params = request.params as Record<string, string>;
  const id = String(params[collection === 'maintenance' ? 'docId' : 'id']);
  if (collection === 'maintenance' && !maintenanceDocIdSchema.safeParse(id).success) fail('NOT_FOUND');
  return { id, number: Number(params.number) };
}

/** "Restore this version" as a pending change: the version's state, saved again through the collection's restorer when published. */
function reviewed(collection: VersionCollection): ReviewedPart {
  async function versionState(ctx: AppContext, input: RestoreInput) {
    const version = await repo.find(ctx.db, collection, input.id, input.number);
    if (!version) fail('NOT_FOUND');
    const snapshot = parseSnapshot(version.snapshot);
    return {
      fields: candidate(collection, { id: input.id, snapshot, input: { version: 0, replacements: input.replacements } }),
      ...(snapshot.photos ? { photos: snapshot.photos } : {}),
    };
  }

  return {
    collection,
    actions: {
      version_restore: {
        async propose(ctx, request) {
          const { id, number } = target(collection, request);
          const body = request.body as VersionRestoreInput;
          const current = await repo.liveRecordVersion(ctx.db, collection, id);
          if (current === undefined) fail('NOT_FOUND');
          if (current !== body.version) fail('VERSION_CONFLICT', undefined, undefined, { currentVersion: current });
          const input: RestoreInput = { id, number, replacements: body.replacements };
          const state = await versionState(ctx, input);
          const now = (await versionedCollection(ctx, collection).current(ctx.db, [id])).get(id)?.snapshot.fields ?? state.fields;
          const name =
            collection === 'maintenance'
              ? MAINTENANCE.audit.names[maintenanceDocIdSchema.parse(id)]
              : String(now.name ?? now.varietyName ?? id);
          return { recordId: id, recordName: name, baseVersion: body.version, input, photoIds: [] };
        },
        async apply(ctx, change: ReviewChange, author, role) {
          const { id, number, replacements } = change.input as RestoreInput;
          await createVersionRestore(ctx).restore(collection, id, number, { version: change.baseVersion ?? 0, replacements }, author, role);
        },
        proposed: (ctx, change) => versionState(ctx, change.input as RestoreInput),
      },
    },
  };
}

export default VERSION_COLLECTIONS.map(reviewed);
