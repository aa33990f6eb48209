/**
 * The review module's face: what other modules, the app and the command line may
 * use of it; nothing else of the module is imported from outside it (lint: palayan/module-face).
 */
export { reviewedRegistry } from './adapters.js';
