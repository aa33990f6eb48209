import { z } from './zod.js';
import { LIMITS } from '../limits.js';
import type { CatalogKind } from '../catalog.js';
import { CATALOG_FIELD_KEYS, CATALOG_FIELDS, type CatalogField } from '../catalog-fields.js';
import { PHOTO_ORDER_TEXTS, UPLOAD_TEXTS } from '../catalog-texts.js';

/**
 * One schema per kind and purpose: it validates the add/edit form in the browser and the
 * route body on the server, with the same texts (docs/PRODUCT.md) field by field.
 */
const optionalText = (max: number = LIMITS.maxTextLength) => z.string().trim().max(max).default('');

/** Each type of field's rule (common/catalog-fields.ts says which type each field is). */
const FIELD_RULES = {
  name: (kind: CatalogKind) =>
    z.string({ error: kind.texts.nameRequired }).trim().min(1, kind.texts.nameRequired).max(LIMITS.maxShortTextLength),
  shortText: () => optionalText(LIMITS.maxShortTextLength),
  longText: () => optionalText(),
  /** Diseases only (ignored for pests): values of the managed Affected Parts list. */
  parts: () => z.array(z.string().trim().min(1).max(200)).max(50).default([]),
  /** Diseases only, set by super admins: a scanner class that is not a disease. */
  trainingFlag: () => z.boolean().default(false),
};

/** What the API sends of each type of field. */
const FIELD_VALUES = {
  name: z.string(),
  shortText: z.string(),
  longText: z.string(),
  parts: z.array(z.string()),
  trainingFlag: z.boolean(),
};

type FieldType<K extends CatalogField> = (typeof CATALOG_FIELDS)[K]['type'];

function fieldsShape(kind: CatalogKind) {
  return Object.fromEntries(CATALOG_FIELD_KEYS.map((k) => [k, FIELD_RULES[CATALOG_FIELDS[k].type](kind)])) as {
    [K in CatalogField]: ReturnType<(typeof FIELD_RULES)[FieldType<K>]>;
  };
}

const fieldValues = Object.fromEntries(CATALOG_FIELD_KEYS.map((k) => [k, FIELD_VALUES[CATALOG_FIELDS[k].type]])) as {
  [K in CatalogField]: (typeof FIELD_VALUES)[FieldType<K>];
};

const imageId = z.string().min(1).max(64);
/** The user confirmed saving a name another live entry of the kind has (else 409 duplicate_name). */
const allowDuplicateName = z.boolean().optional();
const unique = (ids: string[]) => new Set(ids).size === ids.length;

/** A new entry names its staged photos, in order; the first becomes mainImageUrl. */
export function catalogCreateSchema(kind: CatalogKind) {
  return z.object({
    ...fieldsShape(kind),
    imageIds: z
      .array(imageId, { error: kind.texts.minImages })
      .min(kind.minImagesOnCreate, kind.texts.minImages)
      .max(kind.maxImages, kind.texts.maxImages)
      .refine(unique, UPLOAD_TEXTS.duplicateImage),
    allowDuplicateName,
  });
}

/**
 * An edit names the version it edited and the final, ordered image list: existing images it
 * keeps plus newly staged ones. Existing images left out are removed. New images are optional.
 */
export function catalogUpdateSchema(kind: CatalogKind) {
  return z.object({
    ...fieldsShape(kind),
    imageIds: z.array(imageId).max(kind.maxImages, kind.texts.maxImages).refine(unique, UPLOAD_TEXTS.duplicateImage),
    version: z.number().int().min(1),
    allowDuplicateName,
  });
}

/**
 * One photo of an entry moved to a place in its order (0: the main photo), on the edit version
 * the user saw: a small request whatever the size of the set, refused (409) when the entry
 * changed since.
 */
export function photoMoveSchema(kind: CatalogKind) {
  return z.object({
    version: z.number().int().min(1),
    photoId: imageId,
    position: z
      .number()
      .int()
      .min(0)
      .max(kind.maxImages - 1, PHOTO_ORDER_TEXTS.positionOutside(kind.maxImages)),
  });
}
export type PhotoMoveInput = z.output<ReturnType<typeof photoMoveSchema>>;

/** A move made: the entry's new edit version, the photo's place and the main photo. */
export const photoMovedSchema = z.object({
  id: z.string(),
  version: z.number(),
  updatedAt: z.string(),
  photoId: z.string(),
  from: z.number(),
  position: z.number(),
  count: z.number(),
  mainImageUrl: z.string().nullable(),
});
export type PhotoMoved = z.infer<typeof photoMovedSchema>;

export type CatalogCreateInput = z.output<ReturnType<typeof catalogCreateSchema>>;
export type CatalogUpdateInput = z.output<ReturnType<typeof catalogUpdateSchema>>;

/** Whether another live entry of the kind has this name (trimmed, any case): the form asks while the user types. */
export const nameTakenQuerySchema = z.object({
  name: z.string().trim().min(1).max(LIMITS.maxShortTextLength),
  except: z.string().max(100).optional(),
});
export const nameTakenSchema = z.object({ taken: z.object({ id: z.string(), name: z.string() }).nullable() });

/** The orders of a pest or disease list: when added (newest first by default), name, photo count, last updated. */
export const CATALOG_SORTS = ['added', 'name', 'photos', 'updated'] as const;
export type CatalogSort = (typeof CATALOG_SORTS)[number];
/** A sort's first direction: names A to Z, the rest largest or newest first. */
export const catalogSortDir = (sort: CatalogSort): 'asc' | 'desc' => (sort === 'name' ? 'asc' : 'desc');

export const catalogListQuerySchema = z.object({
  search: z.string().trim().max(LIMITS.maxShortTextLength).optional(),
  sort: z.enum(CATALOG_SORTS).optional(),
  dir: z.enum(['asc', 'desc']).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type CatalogListQuery = z.infer<typeof catalogListQuerySchema>;

export const catalogImageStatusSchema = z.enum(['pending', 'ready', 'failed', 'external']);

export const catalogImageSchema = z.object({
  id: z.string(),
  position: z.number(),
  status: catalogImageStatusSchema,
  /** The original, unchanged (staff only). */
  url: z.string().nullable(),
  displayUrl: z.string().nullable(),
  thumbUrl: z.string().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  sizeBytes: z.number().nullable(),
  originalName: z.string().nullable(),
});
export type CatalogImage = z.infer<typeof catalogImageSchema>;

export const catalogEntrySchema = z.object({
  id: z.string(),
  ...fieldValues,
  mainImageUrl: z.string().nullable(),
  /** The first image's thumbnail and status, for the card (a placeholder until ready). */
  mainThumbUrl: z.string().nullable(),
  mainImageStatus: catalogImageStatusSchema.nullable(),
  imageCount: z.number(),
  pendingImageCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  version: z.number(),
});
export type CatalogEntry = z.infer<typeof catalogEntrySchema>;

export const catalogEntryDetailSchema = catalogEntrySchema.extend({
  images: z.array(catalogImageSchema),
});
export type CatalogEntryDetail = z.infer<typeof catalogEntryDetailSchema>;

export const catalogListSchema = z.object({
  items: z.array(catalogEntrySchema),
  total: z.number(),
  offset: z.number(),
  limit: z.number(),
});
export type CatalogList = z.infer<typeof catalogListSchema>;

/** What the upload route returns for one staged photo. */
export const stagedImageSchema = z.object({
  id: z.string(),
  originalName: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number(),
  width: z.number(),
  height: z.number(),
  sha256: z.string(),
  /**
   * Disease photos only: photos this one is a copy of (the same bytes, or a perceptual hash
   * within DATASET_LIMITS.nearDuplicateBits), nearest first: saved photos of live diseases and
   * the uploader's own staged ones (entryId null).
   */
  similar: z
    .array(
      z.object({
        imageId: z.string(),
        entryId: z.string().nullable(),
        entryName: z.string().nullable(),
        distance: z.number(),
        exact: z.boolean(),
        thumbUrl: z.string().nullable(),
      }),
    )
    .default([]),
});
export type StagedImage = z.infer<typeof stagedImageSchema>;

export const discardStagedSchema = z.object({ ids: z.array(imageId).max(5000) });

/** The photo upload's query: keepOriginal=true stores the photo at the size sent (super admins). */
export const stageQuerySchema = z.object({ keepOriginal: z.enum(['true', 'false']).optional() });

/** GET /api/photo-settings: how the browser sizes photos before it sends them. */
export const photoSettingsSchema = z.object({
  /** The longest side a stored photo has; 0: photos are kept as sent. */
  maxEdge: z.number().int(),
  /** JPEG quality (0–1) of a photo made smaller. */
  quality: z.number(),
  canKeepOriginals: z.boolean(),
});
export type PhotoSettings = z.infer<typeof photoSettingsSchema>;
