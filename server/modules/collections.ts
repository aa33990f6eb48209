import type { TranslatedCollection } from '../../common/languages.js';
import type { ReviewCollection } from '../../common/review.js';
import type { VersionCollection } from '../../common/versions.js';
import type { CollectionAdapters } from '../platform/http/context.js';
import type { ReviewedPart } from '../platform/writes/review-gate.js';
import { catalogCollections } from './content/catalog/collection.js';
import datasetReviewed from './content/dataset/reviewed.js';
import { optionListsCollection } from './content/maintenance/collection.js';
import publicApiReviewed from './farmer-app/public/reviewed.js';
import { reviewedRegistry } from './publishing/review/index.js';
import { translatedRegistry, type TranslatedPart } from './content/translations/index.js';
import translationsReviewed from './content/translations/reviewed.js';
import trashReviewed from './content/trash/reviewed.js';
import { varietiesCollection } from './content/varieties/collection.js';
import { versionedRegistry, type VersionedCollection } from './publishing/versions/index.js';
import versionsReviewed from './publishing/versions/reviewed.js';

type RecordCollection = VersionCollection | TranslatedCollection | ReviewCollection;

/**
 * What one collection gives the hubs. common/ declares which collections are versioned
 * (VERSION_COLLECTIONS), translated (TRANSLATED_COLLECTIONS) and reviewed (REVIEW_COLLECTIONS);
 * a definition that lacks the adapter one of those declarations asks for does not compile.
 */
export type CollectionDefinition<N extends RecordCollection> = (N extends VersionCollection ? { versioned: VersionedCollection } : object) &
  (N extends TranslatedCollection ? { translated: TranslatedPart } : object) &
  (N extends ReviewCollection ? { reviewed: ReviewedPart } : object);

/** Every collection of records, each defined once in its module's collection.ts and listed here by import. */
export const COLLECTION_DEFINITIONS: { [N in RecordCollection]: CollectionDefinition<N> } = {
  rice_seed_varieties: varietiesCollection,
  ...catalogCollections,
  maintenance: optionListsCollection,
};

const definitions = Object.entries(COLLECTION_DEFINITIONS).map(([name, definition]) => {
  for (const adapter of Object.values(definition)) {
    if (adapter.collection !== name) throw new Error(`The definition of ${name} holds an adapter of ${adapter.collection}`);
  }
  return definition;
});

/**
 * The adapters the hubs work through, handed over as ctx.collections: the collections'
 * definitions, and the reviewed saves of the capabilities over them (a photo taken out in
 * Dataset health, a record back from the trash, a version restored, a translators' file, the
 * app preview).
 */
export const COLLECTION_ADAPTERS: CollectionAdapters = {
  versioned: versionedRegistry(definitions.map((d) => d.versioned)),
  translated: translatedRegistry(definitions.map((d) => d.translated)),
  reviewed: reviewedRegistry([
    ...definitions.map((d) => d.reviewed),
    ...datasetReviewed,
    ...publicApiReviewed,
    ...translationsReviewed,
    ...trashReviewed,
    ...versionsReviewed,
  ]),
};
