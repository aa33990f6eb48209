import { pick } from '../../../platform/support/pick.js';
import { accountsRepository } from './repository.js';

/**
 * Admin accounts (super admins): list, create, edit, delete, restrict, unlock and export; the auto-inactivation sweep;
 * the one way an account row is born (create-account.ts); an account disarmed when it comes back from the trash
 * (disarm.ts); and the two-step sign-in routes of Account Settings and the Accounts screen (second-factor-routes.ts).
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */
export { createAccount } from './create-account.js';
export { disarmRestoredAccount } from './disarm.js';
export { blockReason } from './presenter.js';
export { normalizeIdentity } from './repository.js';
export type { AccountRow } from './repository.js';
export { isRequiredFor } from './second-factor.js';

/** The calls of accountsRepository other modules make; the rest of it is this module's own. */
export const accountsRecords = pick(accountsRepository, ['countAll', 'findById', 'findByIdentifier', 'liveActors', 'update']);
