import { byCatalogCollection, type CatalogKind } from '../../../../common/catalog.js';
import { catalogReviewed } from './reviewed.js';
import { catalogTranslated } from './translated.js';
import { catalogVersioned } from './versioned.js';

/** A pest or disease collection as the hubs are given it (server/modules/collections.ts): one definition per kind. */
function catalogCollection(kind: CatalogKind) {
  return { versioned: catalogVersioned(kind), translated: catalogTranslated(kind), reviewed: catalogReviewed(kind) };
}

/** Each kind's collection (common/catalog.ts), by table. */
export const catalogCollections = byCatalogCollection(catalogCollection);
