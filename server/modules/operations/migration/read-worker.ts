import fs from 'node:fs';
import { fail } from '../../../platform/http/errors.js';
import { serveFileReads } from '../../../platform/parsing/serve.js';
import { readCollections, type ExportCollections } from './firestore.js';

/** A Firebase export file, parsed and laid out as collections on a file reader's thread. */
async function readExportFile(file: string): Promise<ExportCollections> {
  let json: unknown;
  try {
    json = JSON.parse(await fs.promises.readFile(file, 'utf8'));
  } catch (err) {
    fail('VALIDATION_FAILED', `The export is not valid JSON: ${(err as Error).message}`);
  }
  try {
    return readCollections(json);
  } catch (err) {
    fail('VALIDATION_FAILED', (err as Error).message);
  }
}

/** The Firebase importer's reader thread. */
export const exportTasks = { export: readExportFile };

serveFileReads(exportTasks);
