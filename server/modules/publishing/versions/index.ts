import { pick } from '../../../platform/support/pick.js';
import { versionsRepository } from './repository.js';

/**
 * The versions module's face: what other modules, the app and the command line may
 * use of it; nothing else of the module is imported from outside it (lint: palayan/module-face).
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
