/**
 * The audit chain's integrity (super admins): the chain walked with its archives and anchors (verify.ts, check.ts),
 * retention archives (archive.ts), the head anchored in DATA_DIR/audit-anchors and mailed (anchors.ts), Verify now, and
 * the daily run that one instance takes by its period slot (service.ts).
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */
export { readAnchorFile, readAnchors } from './anchors.js';
export { verifyAuditTrail } from './check.js';
export type { AnchorCheck } from './verify.js';
