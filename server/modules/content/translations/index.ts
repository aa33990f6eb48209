import { pick } from '../../../platform/support/pick.js';
import { translationsRepository } from './repository.js';

/**
 * The farmers' languages and the translations of farmer-facing fields: languages, a record's translations with stale
 * marks, completeness, the translators' files (XLIFF 2.0, CSV, XLSX, read off the server's thread) and their review.
 * It imports no collection: their translated adapters reach it as ctx.collections.translated (translatedRegistry).
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */
export { translatedCollections, translatedRegistry } from './adapters.js';
export type { SourceRecord, TranslatedPart, TranslatedParts } from './adapters.js';
export { LANGUAGES_STAMP, translationStamp } from './repository.js';
export { restoreTranslations, touchUsers } from './writes.js';

/** The calls of translationsRepository other modules make; the rest of it is this module's own. */
export const translationsRecords = pick(translationsRepository, ['languages', 'matching', 'ofRecords', 'snapshotsOf', 'textsOfCollection']);
