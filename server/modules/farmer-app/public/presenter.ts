import type { Variety } from '../../../../common/schemas/varieties.js';

export interface PublicImage { id: string; displayUrl: string; thumbnailUrl: string; width: number | null; height: number | null }

interface CatalogFields {
  id: string; name: string; scientificName: string | null; localName: string | null; affectedParts: string[];
  description: string | null; cause: string | null; symptoms: string | null; treatments: string | null;
  createdAt: string; updatedAt: string | null;
}

/** A pest or disease as the farmer app receives it (the content API, and the review's app preview). */
export function publicCatalogItem(r: CatalogFields, images: PublicImage[]) {
  return {
    id: r.id, name: r.name, scientificName: r.scientificName, localName: r.localName, affectedParts: r.affectedParts,
    description: r.description, cause: r.cause, symptoms: r.symptoms, treatments: r.treatments,
    mainImage: images[0] ?? null, images, createdAt: r.createdAt, updatedAt: r.updatedAt,
  };
}

/** A variety as the farmer app receives it: the console's view without its edit version. */
export function publicVariety(v: Variety) {
  const { version: _version, ...variety } = v;
  return variety;
}
