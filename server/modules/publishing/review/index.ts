/**
 * Review before publishing: with a collection's review on, its saves wait as pending changes (gate.ts) until a second
 * account approves them; the queue and settings (service.ts), decisions (decisions.ts), publishing now or when scheduled
 * (publishing.ts), emails (notify.ts). It imports no collection: their reviewed adapters reach it as ctx.collections.reviewed.
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */
export { reviewedRegistry } from './adapters.js';
