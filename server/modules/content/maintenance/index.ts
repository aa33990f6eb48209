import { pick } from '../../../platform/support/pick.js';
import { maintenanceRepository } from './repository.js';

/**
 * The maintenance module's face: what other modules, the app and the command line may
 * use of it; nothing else of the module is imported from outside it (lint: palayan/module-face).
 */
export { ensureMaintenanceDefaults, getAccountEnums, getDiseaseEnums, getVarietyEnums } from './option-lists.js';

/** The calls of maintenanceRepository other modules make; the rest of it is this module's own. */
export const maintenanceRecords = pick(maintenanceRepository, ['find', 'insertIfMissing', 'update']);
