import { z } from './zod.js';
import { EVALUATION_SET_LIMITS, EVALUATION_SET_TEXTS } from '../evaluation-sets.js';
import { CONTROL_TEXTS, hasControlCharacters, visibleControls } from '../text-controls.js';

/** One of a set's photos that is a near-copy of a training photo (distance: bits of 64 apart, 0 for the same bytes). */
export const leakPairSchema = z.object({
  photoId: z.string(),
  fileName: z.string(),
  imageId: z.string(),
  recordId: z.string(),
  recordName: z.string(),
  distance: z.number().int(),
});
export type LeakPair = z.infer<typeof leakPairSchema>;

export const evaluationSetSchema = z.object({
  id: z.string(),
  name: z.string(),
  fileName: z.string(),
  sha256: z.string(),
  sizeBytes: z.number(),
  photoCount: z.number().int(),
  /** Each label with the record it means (name as now; null when the record is gone) and its photos. */
  labels: z.array(z.object({ label: z.string(), recordId: z.string(), recordName: z.string().nullable(), photos: z.number().int() })),
  leakCount: z.number().int(),
  leaks: z.array(leakPairSchema),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type EvaluationSet = z.infer<typeof evaluationSetSchema>;

export const evaluationSetListSchema = z.object({ sets: z.array(evaluationSetSchema) });

/** The upload's text field beside its "file" (the ZIP). */
export const evaluationSetFieldsSchema = z
  .object({
    // A multipart field passes no input guard: the name's control and direction characters are refused here.
    name: z
      .string()
      .trim()
      .min(1, EVALUATION_SET_TEXTS.errors.nameRequired)
      .max(EVALUATION_SET_LIMITS.maxNameLength)
      .refine((name) => !hasControlCharacters(name), { error: (issue) => CONTROL_TEXTS.refused(visibleControls(String(issue.input))) }),
  })
  .strict();
