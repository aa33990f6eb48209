/**
 * Forgot password (the security question, in steps), the emailed reset link and a new account's invitation link: the
 * flow (service.ts), attempts counted before they are checked and the pause (attempts.ts), the reset message
 * (reset-email.ts), security answers hashed and compared (answers.ts).
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */
export { hashAnswer } from './answers.js';
export { recoveryServiceFor } from './service.js';
