/**
 * Rice varieties: the list and its search (search/: kept counts, the trigram index, a page cache, SQLite reader threads),
 * create, edit and delete through runCommand, the spreadsheet import (dry run, then one command) and export, and the
 * collection's versioned, translated and reviewed adapters (collection.ts).
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */
export { presentVariety } from './presenter.js';
export { createVarietiesService } from './service.js';
