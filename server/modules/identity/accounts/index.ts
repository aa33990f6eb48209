import { pick } from '../../../platform/support/pick.js';
import { accountsRepository } from './repository.js';

/**
 * The accounts module's face: what other modules, the app and the command line may
 * use of it; nothing else of the module is imported from outside it (lint: palayan/module-face).
 */
export { createAccount } from './create-account.js';
export { disarmRestoredAccount } from './disarm.js';
export { blockReason } from './presenter.js';
export { normalizeIdentity } from './repository.js';
export type { AccountRow } from './repository.js';
export { isRequiredFor } from './second-factor.js';

/** The calls of accountsRepository other modules make; the rest of it is this module's own. */
export const accountsRecords = pick(accountsRepository, ['countAll', 'findById', 'findByIdentifier', 'liveActors', 'update']);
