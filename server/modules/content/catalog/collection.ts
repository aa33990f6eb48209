import { CATALOG_KINDS, type CatalogKind } from '../../../../common/catalog.js';
import { catalogReviewed } from './reviewed.js';
import { catalogTranslated } from './translated.js';
import { catalogVersioned } from './versioned.js';

/** A pest or disease collection as the hubs are given it (server/modules/collections.ts): one definition per kind. */
function catalogCollection(kind: CatalogKind) {
  return { versioned: catalogVersioned(kind), translated: catalogTranslated(kind), reviewed: catalogReviewed(kind) };
}

export const pestsCollection = catalogCollection(CATALOG_KINDS.pest);
export const diseasesCollection = catalogCollection(CATALOG_KINDS.disease);
