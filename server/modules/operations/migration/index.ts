/**
 * The Firebase export importer, run by server/cli/import.ts (no routes): the export read off the server's thread
 * (firestore.ts, read-worker.ts), one mapper per collection (map-*.ts) over one shared run (import-run.ts), and images
 * fetched only over http(s) from public addresses (image-fetch.ts).
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */
export type { ExportCollections } from './firestore.js';
export { importFirestoreCollections, readExportFile } from './importer.js';
