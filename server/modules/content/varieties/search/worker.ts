/** A thread that runs variety searches for the server (db/read-workers.ts). */
import { serveReadTasks } from '../../../../db/read-workers.js';
import { browseCount, browsePage } from './browse.js';
import { pageOfMatches, searchPage } from './search.js';

await serveReadTasks({ searchPage, pageOfMatches, browseCount, browsePage });
