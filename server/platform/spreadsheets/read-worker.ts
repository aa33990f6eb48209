import { serveFileReads } from '../parsing/serve.js';
import { readTableFile } from './table-reader.js';

/** The spreadsheet reader's thread: a CSV or XLSX upload read whole, off the server's thread. */
export const tableTasks = { table: readTableFile };

serveFileReads(tableTasks);
