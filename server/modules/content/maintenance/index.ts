import { pick } from '../../../platform/support/pick.js';
import { maintenanceRepository } from './repository.js';

/**
 * File Maintenance's option lists (variety lists, security questions, diseases' affected parts): what every form reads,
 * the defaults and the year-release rollover (option-lists.ts, lists.ts), super admins' edits (service.ts), and the
 * option-list documents' versioned, translated and reviewed adapters (collection.ts).
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */
export { ensureMaintenanceDefaults, getAccountEnums, getDiseaseEnums, getVarietyEnums } from './option-lists.js';
export { createMaintenanceService } from './service.js';

/** The calls of maintenanceRepository other modules make; the rest of it is this module's own. */
export const maintenanceRecords = pick(maintenanceRepository, ['find', 'insertIfMissing', 'update']);
