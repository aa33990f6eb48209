import { pick } from '../../../platform/support/pick.js';
import { modelsRepository } from './repository.js';

/**
 * The models module's face: what other modules, the app and the command line may
 * use of it; nothing else of the module is imported from outside it (lint: palayan/module-face).
 */

/** The calls of modelsRepository other modules make; the rest of it is this module's own. */
export const modelsRecords = pick(modelsRepository, ['versions']);
