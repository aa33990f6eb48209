/**
 * The recovery module's face: what other modules, the app and the command line may
 * use of it; nothing else of the module is imported from outside it (lint: palayan/module-face).
 */
export { hashAnswer } from './answers.js';
export { recoveryServiceFor } from './service.js';
