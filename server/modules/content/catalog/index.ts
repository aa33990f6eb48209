import { pick } from '../../../platform/support/pick.js';
import { catalogRepository } from './repository.js';

/**
 * Pests and diseases, one module parameterised by kind (common/catalog.ts; fields declared once in common/catalog-fields.ts):
 * routes under /api/rice_pests and /api/rice_diseases, list, create, edit and delete through runCommand (photos planned
 * and attached by the photos module), CSV/XLSX export, and each kind's versioned, translated and reviewed adapters (collection.ts).
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */
export { parseList } from './presenter.js';
export { createCatalogService } from './service.js';

/** The calls of catalogRepository other modules make; the rest of it is this module's own. */
export const catalogRecords = pick(catalogRepository, ['findLiveByName']);
