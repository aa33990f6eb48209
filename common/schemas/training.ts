import { z } from './zod.js';
import { TRAINING_SET } from '../catalog.js';

const ratio = z.coerce.number().min(0, TRAINING_SET.ratiosInvalid).max(1, TRAINING_SET.ratiosInvalid);

/**
 * The training-set download's query: one disease or all, image-folder layout with a split
 * (default) or flat (one folder per label), the split's ratios and seed, and whether photos with
 * conflicting labels are kept. Published photos only, unless `pending` adds those of disease edits waiting for review.
 */
export const trainingSetQuerySchema = z
  .object({
    diseaseId: z.string().max(100).optional(),
    layout: z.enum(['split', 'flat']).default('split'),
    train: ratio.default(TRAINING_SET.defaultRatios.train),
    validation: ratio.default(TRAINING_SET.defaultRatios.validation),
    test: ratio.default(TRAINING_SET.defaultRatios.test),
    /** Photos that are copies across two diseases (two labels for one picture) are left out unless included. */
    conflicts: z.enum(['exclude', 'include']).default('exclude'),
    /** Also the photos of disease edits still waiting for review (staged, not yet published). */
    pending: z.enum(['true', 'false']).default('false'),
    seed: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[\w.-]+$/, 'seed may hold letters, digits, _ . and - only')
      .default(TRAINING_SET.defaultSeed),
  })
  .refine((q) => Math.abs(q.train + q.validation + q.test - 1) < 1e-6, { message: TRAINING_SET.ratiosInvalid, path: ['train'] });
export type TrainingSetQuery = z.output<typeof trainingSetQuerySchema>;
