import { z } from './zod.js';
import { MODEL_CHANNELS, MODEL_STAGES, PLANT_VERDICTS } from '../models.js';
import { inputQuantizationSchema, outputQuantizationSchema, pixelContractSchema, thresholdsSchema } from './models.js';

/** What the farmer app gets for one stage. */
export const publicModelSchema = z.object({
  stage: z.enum(MODEL_STAGES),
  channel: z.enum(MODEL_CHANNELS),
  version: z.string(),
  sha256: z.string(),
  size: z.number(),
  url: z.string(),
  inputShape: z.array(z.number()),
  inputType: z.string(),
  /**
   * uint8 pixels: the app feeds each pixel's 0–255 value as it is (the contract's '0-255'); this says
   * what that number means to the model (scale × (q − zeroPoint)), for an app that quantises values it prepared itself.
   */
  inputQuantization: inputQuantizationSchema,
  /** Scores given as 8-bit integers: the app turns each into scale × (q − zeroPoint) before any threshold. */
  outputQuantization: outputQuantizationSchema,
  contract: pixelContractSchema,
  thresholds: thresholdsSchema,
  labels: z.array(
    z.object({
      index: z.number(),
      label: z.string(),
      recordId: z.string().nullable(),
      verdict: z.enum(PLANT_VERDICTS).nullable(),
      name: z.string().nullable(),
      localName: z.string().nullable(),
    }),
  ),
  /**
   * Photos at the input size (JPEG, 4:4:4) with the scores the console's evaluation gave them:
   * the app prepares each as a camera photo and checks its scores are within `tolerance`.
   */
  testVectors: z.object({
    tolerance: z.number(),
    vectors: z.array(
      z.object({
        jpegBase64: z.string(),
        width: z.number(),
        height: z.number(),
        expected: z.array(z.object({ index: z.number(), label: z.string(), score: z.number() })),
      }),
    ),
  }),
  publishedAt: z.string(),
});
export type PublicModel = z.infer<typeof publicModelSchema>;

export const publicModelsSchema = z.object({
  disease: publicModelSchema.nullable(),
  plant: publicModelSchema.nullable(),
});

export const publicModelQuerySchema = z.object({ stage: z.enum(MODEL_STAGES).optional() });
export const publicModelFileParams = z.object({
  version: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\w.+-]+$/),
});
