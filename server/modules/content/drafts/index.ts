import { pick } from '../../../platform/support/pick.js';
import { draftsRepository } from './repository.js';

/**
 * The drafts module's face: what other modules, the app and the command line may
 * use of it; nothing else of the module is imported from outside it (lint: palayan/module-face).
 */

/** The calls of draftsRepository other modules make; the rest of it is this module's own. */
export const draftsRecords = pick(draftsRepository, ['remove']);
