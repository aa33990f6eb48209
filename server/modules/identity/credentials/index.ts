import { pick } from '../../../platform/support/pick.js';
import { credentialsRepository } from './repository.js';
import { secondFactorRepository } from './second-factor/repository.js';

/**
 * No routes: the proofs an account signs in with, below every module that checks or changes them: the current password
 * and code a sensitive change needs (identity.ts), the sign-in and unlock budgets and lockout notices (guesses.ts),
 * unlock links, what a new password voids (proofs.ts), and second factors (second-factor/: TOTP, recovery codes, challenges).
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */
export {
  lockedOut,
  noticeLockout,
  noticePasswordChanged,
  noticeQuestionReset,
  noticeUnlock,
  signInBudget,
  unlockBudget,
} from './guesses.js';
export { identityCheck } from './identity.js';
export { voidEmailedLinks, voidPasswordProofs } from './proofs.js';
export type { TokenPurpose } from './repository.js';
export { findOpenChallenge, newChallenge } from './second-factor/challenges.js';
export { CodeAlreadyUsed, checkCode, consumeCode, enableFactor, newRecoveryCodes } from './second-factor/codes.js';
export type { SecondFactorRow } from './second-factor/repository.js';
export { checkTotp, newTotpSecret, setupOf } from './second-factor/totp.js';
export { issueUnlockLink, lockedProof, unlockLinkBudgetKey, useLockedProof } from './unlock-links.js';

/** The calls of credentialsRepository other modules make; the rest of it is this module's own. */
export const credentialsRecords = pick(credentialsRepository, ['insertToken', 'retireTokens']);

/** The calls of secondFactorRepository other modules make; the rest of it is this module's own. */
export const secondFactorRecords = pick(secondFactorRepository, [
  'endChallenges',
  'find',
  'recoveryCodesLeft',
  'remove',
  'replaceRecoveryCodes',
  'useChallenge',
]);
