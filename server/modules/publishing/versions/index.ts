import { pick } from '../../../platform/support/pick.js';
import { versionsRepository } from './repository.js';

/**
 * Every saved state of a variety, pest, disease and option-list document (record_versions): the version a save writes in
 * its transaction (record.ts), the list and a comparison, a version restored through its collection's own service
 * (restore.ts), retention (prune.ts). It imports no collection: their versioned adapters reach it as ctx.collections.versioned.
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */
export { versionedCollection, versionedRegistry } from './adapters.js';
export type { RestoreRequest, VersionedCollection } from './adapters.js';
export { backfillFirstVersions, recordCurrentVersion } from './current.js';
export { recordVersion, recordVersions } from './record.js';
export { candidate, issuesByField, optionGone, refuse, withEmptyText } from './restore-checks.js';
export { createVersionsService, fieldKeys } from './service.js';
export { parseSnapshot } from './snapshots.js';
export type { Snapshot } from './snapshots.js';

/** The calls of versionsRepository other modules make; the rest of it is this module's own. */
export const versionsRecords = pick(versionsRepository, ['atRecordVersion', 'byAuditIds', 'liveRecordVersion']);
