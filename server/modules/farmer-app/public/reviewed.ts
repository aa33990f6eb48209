import { CATALOG_KIND_LIST } from '../../../../common/catalog.js';
import { fileUrl } from '../../../platform/storage/storage.js';
import type { AppContext } from '../../../platform/http/context.js';
import type { ReviewedPart, ReviewSnapshot } from '../../../platform/writes/review-gate.js';
import type { Variety } from '../../../../common/schemas/varieties.js';
import { photoReads } from '../../content/photos/index.js';
import { publicCatalogItem, publicVariety } from './presenter.js';

/** The photo strip of the app preview: its first photos are enough to judge it. */
const PREVIEW_PHOTOS = 24;

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The app preview of a pending change: the public API's JSON for a record in the given state,
 * with photos served by the console (a pending change's photos are not public yet).
 */
async function catalogPreview(ctx: AppContext, recordId: string | null, state: ReviewSnapshot) {
  const f = state.fields;
  if (f.isTrainingClass === true) return null;
  const photos = await photoReads.variantsByIds(ctx.db, (state.photos ?? []).slice(0, PREVIEW_PHOTOS));
  const images = photos.map((p) => {
    const display = p.displayKey ?? p.thumbKey;
    return { id: p.id, displayUrl: display ? fileUrl(display) : '', thumbnailUrl: p.thumbKey ? fileUrl(p.thumbKey) : display ? fileUrl(display) : '', width: p.width, height: p.height };
  }).filter((i) => i.displayUrl !== '');
  return {
    ...publicCatalogItem({
      id: recordId ?? 'new', name: String(f.name ?? ''), scientificName: text(f.scientificName), localName: text(f.localName),
      affectedParts: Array.isArray(f.affectedParts) ? f.affectedParts.map(String) : [],
      description: text(f.description), cause: text(f.cause), symptoms: text(f.symptoms), treatments: text(f.treatments),
      createdAt: '', updatedAt: null,
    }, images),
    imageCount: state.photos?.length ?? 0,
  };
}

const parts: ReviewedPart[] = [
  ...CATALOG_KIND_LIST.map((kind): ReviewedPart => ({ collection: kind.collection, preview: catalogPreview })),
  {
    collection: 'rice_seed_varieties',
    preview: async (_ctx, recordId, state) => publicVariety({ ...(state.fields as Omit<Variety, 'id' | 'createdAt' | 'updatedAt' | 'version'>), id: recordId ?? 'new', createdAt: '', updatedAt: null, version: 0 }),
  },
];

export default parts;
