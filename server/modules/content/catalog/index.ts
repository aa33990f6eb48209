import { pick } from '../../../platform/support/pick.js';
import { catalogRepository } from './repository.js';

/**
 * The catalog module's face: what other modules, the app and the command line may
 * use of it; nothing else of the module is imported from outside it (lint: palayan/module-face).
 */
export { parseList } from './presenter.js';
export { createCatalogService } from './service.js';

/** The calls of catalogRepository other modules make; the rest of it is this module's own. */
export const catalogRecords = pick(catalogRepository, ['findLiveByName']);
