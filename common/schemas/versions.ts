import { z } from './zod.js';
import { VERSION_LIMITS } from '../versions.js';

export const versionSummarySchema = z.object({
  kind: z.enum(['create', 'first', 'edit', 'restore']),
  changed: z.array(z.string()),
  photosAdded: z.number().int(),
  photosRemoved: z.number().int(),
  photosReordered: z.boolean(),
  photoCount: z.number().int().nullable(),
  restoredFrom: z.number().int().nullable(),
});

/** One version in the Versions list (no snapshot: the list stays small for 2000-photo diseases). */
export const versionItemSchema = z.object({
  number: z.number().int(),
  recordVersion: z.number().int(),
  createdAt: z.string(),
  actorName: z.string().nullable(),
  auditId: z.string().nullable(),
  summary: versionSummarySchema,
  description: z.string(),
});
export type VersionItem = z.infer<typeof versionItemSchema>;

export const versionListSchema = z.object({
  items: z.array(versionItemSchema),
  /** The record's current edit version (what a restore names). */
  recordVersion: z.number().int(),
  /** The next page: versions numbered below this one. */
  nextBefore: z.number().int().nullable(),
});
export type VersionList = z.infer<typeof versionListSchema>;

export const versionListQuerySchema = z.object({
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(VERSION_LIMITS.pageSize),
});

export const versionCompareQuerySchema = z.object({
  from: z.coerce.number().int().min(1),
  to: z.coerce.number().int().min(1),
});

const fieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);
export type VersionFieldValue = z.infer<typeof fieldValueSchema>;

export const versionPhotoSchema = z.object({ id: z.string(), thumbUrl: z.string().nullable(), name: z.string().nullable() });
export type VersionPhoto = z.infer<typeof versionPhotoSchema>;

const photoSideSchema = z.object({ total: z.number().int(), items: z.array(versionPhotoSchema) });

export const versionCompareSchema = z.object({
  from: versionItemSchema,
  to: versionItemSchema,
  fields: z.array(z.object({ key: z.string(), label: z.string(), from: fieldValueSchema, to: fieldValueSchema, changed: z.boolean() })),
  /** Pests and diseases: photos in `to` and not in `from`, and the other way round. */
  photos: z
    .object({
      fromCount: z.number().int(),
      toCount: z.number().int(),
      added: photoSideSchema,
      removed: photoSideSchema,
      reordered: z.boolean(),
    })
    .nullable(),
});
export type VersionCompare = z.infer<typeof versionCompareSchema>;

/**
 * A restore names the record's edit version the user saw (409 when someone saved since) and,
 * for option values removed from their lists since, the current values chosen instead.
 */
export const versionRestoreSchema = z.object({
  version: z.number().int().min(0),
  replacements: z.record(z.string().max(60), z.union([z.string().max(200), z.array(z.string().max(200)).max(50), z.null()])).default({}),
});
export type VersionRestoreInput = z.infer<typeof versionRestoreSchema>;

export const versionRestoreResultSchema = z.object({
  number: z.number().int(),
  recordVersion: z.number().int(),
  photosMissing: z.number().int(),
});
export type VersionRestoreResult = z.infer<typeof versionRestoreResultSchema>;
