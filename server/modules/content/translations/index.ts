import { pick } from '../../../platform/support/pick.js';
import { translationsRepository } from './repository.js';

/**
 * The translations module's face: what other modules, the app and the command line may
 * use of it; nothing else of the module is imported from outside it (lint: palayan/module-face).
 */
export { translatedCollections, translatedRegistry } from './adapters.js';
export type { SourceRecord, TranslatedPart, TranslatedParts } from './adapters.js';
export { LANGUAGES_STAMP, translationStamp } from './repository.js';
export { restoreTranslations, touchUsers } from './writes.js';

/** The calls of translationsRepository other modules make; the rest of it is this module's own. */
export const translationsRecords = pick(translationsRepository, ['languages', 'matching', 'ofRecords', 'snapshotsOf', 'textsOfCollection']);
