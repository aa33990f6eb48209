import type { CatalogCollection } from '../../../db/types/content.js';
import type { AppContext } from '../../../platform/http/context.js';
import { parseList } from '../../content/catalog/index.js';
import { getDiseaseEnums, getVarietyEnums } from '../../content/maintenance/index.js';
import { presentVariety } from '../../content/varieties/index.js';
import type { Localizer } from './localize.js';
import { publicCatalogItem, publicVariety } from './presenter.js';

/** A variety's fields holding option values, and their lists. */
const VARIETY_LISTS = { season: 'seasons', environment: 'environments', plantingMethod: 'plantingMethods' };
import { publicRepository as repo } from './repository.js';
import { photoReads } from '../../content/photos/index.js';

/**
 * The farmer app's content. `serverTime` is the cursor for the next delta sync; it never moves
 * past the link time of a photo still being processed, so the phone asks for that entry again
 * and receives its display and thumbnail sizes once they are ready. Originals are never offered.
 */
export function createPublicService(ctx: AppContext) {
  const { db } = ctx;
  const imageUrl = (id: string, variant: 'display' | 'thumbnail') => `/api/public/v1/images/${id}/${variant}`;

  return {
    async varieties(since: string | undefined, recommended: boolean | undefined, lang: Localizer | null) {
      const serverTime = new Date().toISOString();
      const rows = await repo.changedVarieties(db, since, recommended);
      const items = rows.map((row) => publicVariety(presentVariety(row)));
      return {
        ...(lang ? { language: lang.lang } : {}),
        items: lang ? await lang.records('rice_seed_varieties', items, VARIETY_LISTS) : items,
        deleted: since ? await repo.deletedSince(db, 'rice_seed_varieties', since) : [],
        serverTime,
      };
    },

    async catalog(collection: CatalogCollection, since: string | undefined, lang: Localizer | null) {
      let serverTime = new Date().toISOString();
      const rows = await repo.changedCatalog(db, collection, since);
      const images = await photoReads.variantsOfEntries(db, rows.map((r) => r.id));
      const byEntry = new Map<string, Array<{ id: string; displayUrl: string; thumbnailUrl: string; width: number | null; height: number | null }>>();
      for (const img of images) {
        if (img.status === 'pending' && img.linkedAt && img.linkedAt < serverTime) serverTime = img.linkedAt;
        if (img.status !== 'ready' || !img.displayKey || !img.thumbKey || !img.entryId) continue;
        const list = byEntry.get(img.entryId) ?? [];
        list.push({ id: img.id, displayUrl: imageUrl(img.id, 'display'), thumbnailUrl: imageUrl(img.id, 'thumbnail'), width: img.width, height: img.height });
        byEntry.set(img.entryId, list);
      }
      const items = rows.map((r) => publicCatalogItem({ ...r, affectedParts: parseList(r.affectedParts) }, byEntry.get(r.id) ?? []));
      return {
        ...(lang ? { language: lang.lang } : {}),
        items: lang ? await lang.records(collection, items, { affectedParts: 'affectedParts' }) : items,
        deleted: since ? await repo.deletedSince(db, collection, since) : [],
        serverTime,
      };
    },

    async options(lang: Localizer | null) {
      const lists = { ...await getVarietyEnums(db), ...await getDiseaseEnums(db) };
      return lang ? { language: lang.lang, ...await lang.options(lists) } : lists;
    },

    variantKey: (imageId: string, variant: 'display' | 'thumbnail') => repo.publicVariant(db, imageId, variant),
  };
}
