import { z } from './zod.js';
import { QUALITY_FLAGS } from '../dataset.js';

const photoSchema = z.object({
  id: z.string(),
  diseaseId: z.string(),
  thumbUrl: z.string().nullable(),
});

export const datasetClusterSchema = z.object({
  /** The id of the group's earliest photo. */
  cluster: z.string(),
  kind: z.enum(['exact', 'near', 'conflict']),
  photos: z.array(
    photoSchema.extend({
      /** Bits between this photo's hash and the earliest photo's (null without a hash). */
      distance: z.number().nullable(),
    }),
  ),
});

export const datasetFlaggedSchema = photoSchema.extend({
  flags: z.array(z.enum(QUALITY_FLAGS)),
  sharpness: z.number().nullable(),
  brightness: z.number().nullable(),
  brightnessLow: z.number().nullable(),
  brightnessHigh: z.number().nullable(),
  entropy: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
});

export const datasetHealthSchema = z.object({
  diseases: z.array(z.object({ id: z.string(), name: z.string(), photos: z.number(), share: z.number(), fingerprinted: z.number() })),
  /** Smallest disease's photo count over the largest's (null with fewer than two diseases with photos). */
  imbalance: z.number().nullable(),
  totals: z.object({
    photos: z.number(),
    fingerprinted: z.number(),
    exact: z.number(),
    near: z.number(),
    conflicts: z.number(),
    flagged: z.number(),
  }),
  clusters: z.array(datasetClusterSchema),
  clusterCount: z.number(),
  flagged: z.array(datasetFlaggedSchema),
  flaggedCount: z.number(),
  /** Photos taken out of their diseases here, newest first (at most 200). */
  removed: z.array(
    z.object({
      id: z.string(),
      diseaseId: z.string(),
      diseaseName: z.string().nullable(),
      removedAt: z.string().nullable(),
      removedBy: z.string().nullable(),
      thumbUrl: z.string().nullable(),
    }),
  ),
});
export type DatasetHealth = z.infer<typeof datasetHealthSchema>;

export const removePhotoSchema = z.object({ diseaseId: z.string().min(1).max(100) });
export const photoIdParams = z.object({ imageId: z.string().min(1).max(100) });

/** Published photos only, unless `pending` adds those of disease edits waiting for review. */
export const datasetQuerySchema = z.object({ pending: z.enum(['true', 'false']).default('false') });
