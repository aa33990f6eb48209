import { serveFileReads } from '../../../platform/parsing/serve.js';
import { readXliffFile } from './xliff.js';

/** The translators' XLIFF reader's thread: a file read as a stream, off the server's thread. */
export const xliffTasks = { xliff: readXliffFile };

serveFileReads(xliffTasks);
