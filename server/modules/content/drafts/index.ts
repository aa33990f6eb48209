import { pick } from '../../../platform/support/pick.js';
import { draftsRepository } from './repository.js';

/**
 * An account's unsaved pest or disease (the add form): its fields and chosen photos in order, each with its staged photo
 * once uploaded (catalog_drafts, catalog_draft_photos); and its unsaved variety form, a new record's or an edit's (one
 * per account, the last form it typed in). Removed when the entry is saved, or DRAFT_RETENTION_DAYS after its last
 * change by a job every 6 hours.
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */

/** The calls of draftsRepository other modules make; the rest of it is this module's own. */
export const draftsRecords = pick(draftsRepository, ['remove']);
