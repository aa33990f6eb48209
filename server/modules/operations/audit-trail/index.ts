/**
 * The audit-trail module's face: what other modules, the app and the command line may
 * use of it; nothing else of the module is imported from outside it (lint: palayan/module-face).
 */
export { readAnchorFile, readAnchors } from './anchors.js';
export { verifyAuditTrail } from './check.js';
export type { AnchorCheck } from './verify.js';
