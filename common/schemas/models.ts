import { z } from './zod.js';
import {
  EVALUATION_SPLITS,
  EVALUATION_STATES,
  MODEL_CHANNELS,
  MODEL_LIMITS,
  MODEL_STAGES,
  MODEL_TEXTS,
  PIXEL_SCALINGS,
  PLANT_VERDICTS,
  RESIZE_METHODS,
} from '../models.js';

const triple = z.tuple([z.number().finite(), z.number().finite(), z.number().finite()]);

/** How pixels become the model's input: scaling, with mean and std per channel for 'mean-std'. */
export const pixelContractSchema = z
  .object({
    scaling: z.enum(PIXEL_SCALINGS),
    mean: triple.nullable().default(null),
    std: triple.nullable().default(null),
    resize: z.enum(RESIZE_METHODS),
  })
  .refine((c) => c.scaling !== 'mean-std' || (c.mean !== null && c.std !== null && c.std.every((s) => s > 0)), {
    message: MODEL_TEXTS.meanStdNeeded,
    path: ['std'],
  });
export type PixelContract = z.infer<typeof pixelContractSchema>;

/** Whether two contracts prepare a photo the same way. */
export const sameContract = (a: PixelContract, b: PixelContract): boolean =>
  a.scaling === b.scaling &&
  a.resize === b.resize &&
  JSON.stringify(a.scaling === 'mean-std' ? [a.mean, a.std] : null) === JSON.stringify(b.scaling === 'mean-std' ? [b.mean, b.std] : null);

export const thresholdsSchema = z.object({
  /** The app shows a verdict only at or above this confidence. */
  confidence: z.number().min(0).max(1),
  /** …and only when the best score leads the second-best by at least this much. */
  margin: z.number().min(0).max(1),
});
export type Thresholds = z.infer<typeof thresholdsSchema>;

/** What one label means: a disease record or training class (by id), or for a plant check a verdict. */
export const labelTargetSchema = z.object({
  recordId: z.string().min(1).max(100).nullable().default(null),
  verdict: z.enum(PLANT_VERDICTS).nullable().default(null),
});

/** The settings sent with an upload, as the multipart field "meta" (JSON) before the files. */
export const modelUploadMetaSchema = z
  .object({
    stage: z.enum(MODEL_STAGES),
    contract: pixelContractSchema,
    thresholds: thresholdsSchema,
    /** The label of each output in order; omitted when the model's metadata or a labels file gives them. */
    labels: z
      .array(z.string().trim().min(1).max(MODEL_LIMITS.maxLabelLength, MODEL_TEXTS.labelTooLong))
      .max(MODEL_LIMITS.maxLabels)
      .optional(),
    /** What each label means, by output index; missing entries are suggested and must be confirmed. */
    mapping: z.array(labelTargetSchema).max(MODEL_LIMITS.maxLabels).optional(),
    note: z.string().trim().max(MODEL_LIMITS.maxNoteLength).default(''),
    /** Keep a contract that scored clearly worse than the best on the held-out photos (the user was told). */
    acceptWorseContract: z.boolean().default(false),
  })
  .strict();
export type ModelUploadMeta = z.infer<typeof modelUploadMetaSchema>;

export const modelInspectMetaSchema = z
  .object({
    stage: z.enum(MODEL_STAGES),
    labels: z
      .array(z.string().trim().min(1).max(MODEL_LIMITS.maxLabelLength, MODEL_TEXTS.labelTooLong))
      .max(MODEL_LIMITS.maxLabels)
      .optional(),
  })
  .strict();

const recordOptionSchema = z.object({ id: z.string(), name: z.string(), localName: z.string().nullable(), trainingClass: z.boolean() });

export const labelSuggestionSchema = z.object({
  index: z.number(),
  label: z.string(),
  recordId: z.string().nullable(),
  verdict: z.enum(PLANT_VERDICTS).nullable(),
  /** How the suggestion was found; 'none' when nothing matched (the label is named to the user). */
  matchedBy: z.enum(['name', 'local name', 'label', 'verdict', 'given', 'none']),
});

/**
 * A model whose class scores are 8-bit integers: each score is scale × (q − zeroPoint), read
 * from its output tensor. null: float32 scores, used as they are.
 */
/** A uint8 input's scale and zero point: a pixel number q means scale × (q − zeroPoint) to the model. Null: float32 pixels, or none given. */
export const inputQuantizationSchema = z.object({ scale: z.number().positive(), zeroPoint: z.number().int() }).nullable();
export type InputQuantization = z.infer<typeof inputQuantizationSchema>;

export const outputQuantizationSchema = z
  .object({ type: z.enum(['uint8', 'int8']), scale: z.number(), zeroPoint: z.number().int() })
  .nullable();
export type OutputQuantization = z.infer<typeof outputQuantizationSchema>;

/** Check file's trial of pixel contracts on held-out photos of the labels' records, best first. */
export const contractSearchSchema = z.object({
  photos: z.number(),
  trials: z.array(z.object({ contract: pixelContractSchema, accuracy: z.number() })),
});
export type ContractSearch = z.infer<typeof contractSearchSchema>;

/** What a model file holds, read before anything is stored. */
export const modelInspectionSchema = z.object({
  /** null: a plant check, or too few photos of the labels' records to try contracts on. */
  contractSearch: contractSearchSchema.nullable(),
  /** The contract the model's metadata states (its normalisation, stretched), tried first; null when it states none. */
  metadataContract: pixelContractSchema.nullable(),
  inputShape: z.array(z.number()),
  inputType: z.string(),
  outputQuantization: outputQuantizationSchema,
  outputSize: z.number(),
  operators: z.array(z.string()),
  sha256: z.string(),
  size: z.number(),
  labelsFrom: z.enum(['metadata', 'labels file', 'given']),
  labels: z.array(labelSuggestionSchema),
  /** Every live disease and training class, for the mapping's choices. */
  records: z.array(recordOptionSchema),
});
export type ModelInspection = z.infer<typeof modelInspectionSchema>;

export const modelLabelSchema = z.object({
  index: z.number(),
  label: z.string(),
  recordId: z.string().nullable(),
  verdict: z.enum(PLANT_VERDICTS).nullable(),
  /** The record's name and local name now (null when it is no longer live). */
  recordName: z.string().nullable(),
  localName: z.string().nullable(),
  live: z.boolean(),
});

const evaluationSummarySchema = z.object({
  id: z.string(),
  state: z.enum(EVALUATION_STATES),
  split: z.enum(EVALUATION_SPLITS),
  seed: z.string(),
  total: z.number(),
  done: z.number(),
  accuracy: z.number().nullable(),
  macroF1: z.number().nullable(),
  /** True when its photos are still the current training set's (same split, seed and photos), or the evaluation set's. */
  current: z.boolean(),
  /** The evaluation set it scored (name kept after the set is deleted); null: a split of the training set. */
  evaluationSet: z.object({ id: z.string(), name: z.string() }).nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type EvaluationSummary = z.infer<typeof evaluationSummarySchema>;

export const scannerModelSchema = z.object({
  id: z.string(),
  stage: z.enum(MODEL_STAGES),
  version: z.string(),
  number: z.number(),
  sha256: z.string(),
  size: z.number(),
  inputShape: z.array(z.number()),
  inputType: z.string(),
  outputQuantization: outputQuantizationSchema,
  contract: pixelContractSchema,
  /** Check file's trial of contracts, kept at upload (null: none was made); the chosen one's accuracy is its trial's. */
  contractSearch: contractSearchSchema.nullable(),
  thresholds: thresholdsSchema,
  labels: z.array(modelLabelSchema),
  note: z.string(),
  recordVersion: z.number(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  /** The channels it is on now: live, and pilot with its share. */
  channels: z.array(z.object({ channel: z.enum(MODEL_CHANNELS), share: z.number() })),
  evaluations: z.array(evaluationSummarySchema),
});
export type ScannerModel = z.infer<typeof scannerModelSchema>;

export const publicationSchema = z.object({
  id: z.string(),
  stage: z.enum(MODEL_STAGES),
  channel: z.enum(MODEL_CHANNELS),
  action: z.enum(['publish', 'rollback', 'end-pilot']),
  version: z.string().nullable(),
  share: z.number(),
  note: z.string(),
  overrideReason: z.string().nullable(),
  by: z.string().nullable(),
  at: z.string(),
});

export const modelsOverviewSchema = z.object({
  models: z.array(scannerModelSchema),
  /** Newest first. */
  publications: z.array(publicationSchema),
});
export type ModelsOverview = z.infer<typeof modelsOverviewSchema>;

export const modelIdParams = z.object({ id: z.string().min(1).max(100) });
export const evaluationParams = z.object({ id: z.string().min(1).max(100), evaluationId: z.string().min(1).max(100) });

export const modelMappingSchema = z
  .object({
    version: z.number().int(),
    mapping: z.array(labelTargetSchema).max(MODEL_LIMITS.maxLabels),
  })
  .strict();

export const modelSettingsSchema = z
  .object({
    version: z.number().int(),
    contract: pixelContractSchema,
    thresholds: thresholdsSchema,
    note: z.string().trim().max(MODEL_LIMITS.maxNoteLength),
  })
  .strict();

export const evaluationRequestSchema = z
  .object({
    split: z.enum(EVALUATION_SPLITS).default('test'),
    /** Scores exactly the photos of this earlier evaluation again (split and seed then come from it). */
    sameAs: z.string().min(1).max(100).optional(),
    /** Scores an evaluation set's photos instead of a split of the training set. */
    evaluationSetId: z.string().min(1).max(100).optional(),
    seed: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[\w.-]+$/)
      .optional(),
  })
  .strict();

export const publishSchema = z
  .object({
    channel: z.enum(MODEL_CHANNELS),
    /** The pilot's share of installs, in percent. */
    share: z.number().int().min(MODEL_LIMITS.minPilotShare).max(MODEL_LIMITS.maxPilotShare).optional(),
    note: z.string().trim().min(1, MODEL_TEXTS.noteNeeded).max(MODEL_LIMITS.maxNoteLength),
    /** Publishing despite failed checks: the reason, audited. */
    overrideReason: z.string().trim().max(MODEL_LIMITS.maxNoteLength).optional(),
    /** The thresholds the app applies from now on (the model's own when left out). */
    thresholds: thresholdsSchema.optional(),
  })
  .strict();

export const rollbackSchema = z
  .object({
    stage: z.enum(MODEL_STAGES),
    note: z.string().trim().max(MODEL_LIMITS.maxNoteLength).default(''),
  })
  .strict();

export const endPilotSchema = z.object({ stage: z.enum(MODEL_STAGES) }).strict();

const classMetricsSchema = z.object({
  /** The class's key in the report's `classes` (and the matrix). */
  key: z.string(),
  index: z.number(),
  label: z.string(),
  recordId: z.string().nullable(),
  name: z.string(),
  precision: z.number().nullable(),
  recall: z.number().nullable(),
  f1: z.number().nullable(),
  /** The photos of this class scored. */
  support: z.number(),
  /** Fewer photos than FEW_PHOTOS_BELOW (common/models.ts): its scores are uncertain. */
  fewPhotos: z.boolean(),
  /** This class's F1 minus the live model's on the same photos (null without a comparison). */
  f1Delta: z.number().nullable(),
  recallDelta: z.number().nullable(),
});

export const evaluationReportSchema = z.object({
  evaluation: evaluationSummarySchema.extend({
    modelId: z.string(),
    version: z.string(),
    sha256: z.string(),
    photoSetSha256: z.string(),
    ratios: z.object({ train: z.number(), validation: z.number(), test: z.number() }),
  }),
  /** The true classes (rows) and predicted labels (columns): the records the photos belong to, then labels with no photos. */
  classes: z.array(z.object({ key: z.string(), name: z.string(), recordId: z.string().nullable() })),
  /** matrix[true][predicted]: photo counts. */
  matrix: z.array(z.array(z.number())),
  /** Weakest first: the lowest F1 (a class with none last), then fewer photos, then by name. */
  perClass: z.array(classMetricsSchema),
  /** The key of the weakest class with photos (the first such of `perClass`), or null when no class has any. */
  weakest: z.string().nullable(),
  accuracy: z.number().nullable(),
  macroF1: z.number().nullable(),
  /** Accuracy of the photos answered, and the share answered, as the confidence threshold moves. */
  coverage: z.array(z.object({ threshold: z.number(), coverage: z.number(), accuracy: z.number().nullable() })),
  threshold: z.number(),
  /** At the app's threshold. */
  atThreshold: z.object({ coverage: z.number(), accuracy: z.number().nullable() }),
  /** Whether the confidences mean what they say: per tenth of the best score, its photos' mean confidence and accuracy; the expected calibration error. */
  calibration: z.object({
    bins: z.array(
      z.object({ from: z.number(), to: z.number(), count: z.number(), confidence: z.number().nullable(), accuracy: z.number().nullable() }),
    ),
    ece: z.number().nullable(),
  }),
  /**
   * The thresholds that answer the most photos while the answered ones reach `target`
   * (MODEL_TARGET_ACCURACY); `thresholds` null when none does on at least a few photos.
   */
  recommended: z.object({
    target: z.number(),
    thresholds: z.object({ confidence: z.number(), margin: z.number(), coverage: z.number(), accuracy: z.number() }).nullable(),
  }),
  /** Per margin (THRESHOLD_MARGINS and the model's own), the share answered and its accuracy at each confidence in hundredths (points[c × 100]). */
  thresholdGrid: z.array(
    z.object({ margin: z.number(), points: z.array(z.object({ coverage: z.number(), accuracy: z.number().nullable() })) }),
  ),
  comparison: z
    .object({
      version: z.string(),
      evaluationId: z.string(),
      accuracy: z.number().nullable(),
      macroF1: z.number().nullable(),
      /** Photos right here and wrong with the live model, and the other way round. */
      fixed: z.number(),
      broken: z.number(),
    })
    .nullable(),
});
export type EvaluationReport = z.infer<typeof evaluationReportSchema>;

export const cellQuerySchema = z.object({
  /** A class key of the report (row: true class). */
  actual: z.string().max(100).optional(),
  /** A class key of the report (column: predicted). */
  predicted: z.string().max(100).optional(),
  /** Photos whose verdict differs from the live model's: 'fixed', 'broken' or 'changed' (both). */
  changed: z.enum(['fixed', 'broken', 'changed']).optional(),
});

export const predictionPhotoSchema = z.object({
  imageId: z.string(),
  diseaseId: z.string(),
  diseaseName: z.string(),
  thumbUrl: z.string().nullable(),
  predicted: z.string(),
  confidence: z.number(),
  top: z.array(z.object({ label: z.string(), confidence: z.number() })),
  /** The live model's verdict on this photo, when compared. */
  liveVerdict: z.string().nullable(),
});
export const cellPhotosSchema = z.object({ photos: z.array(predictionPhotoSchema), total: z.number() });
export type PredictionPhoto = z.infer<typeof predictionPhotoSchema>;
