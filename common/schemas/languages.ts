import { z } from './zod.js';
import { LANGUAGE_LIMITS, LANGUAGE_TEXTS, TRANSLATED_COLLECTIONS } from '../languages.js';

const T = LANGUAGE_TEXTS.errors;

export const languageSchema = z.object({ code: z.string(), name: z.string(), enabled: z.boolean() });
export type Language = z.infer<typeof languageSchema>;
export const languageListSchema = z.object({ items: z.array(languageSchema) });

export const languageCodeSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2,3}$/, T.code);
export const addLanguageSchema = z.object({
  code: languageCodeSchema,
  name: z.string().trim().min(1, T.name).max(LANGUAGE_LIMITS.maxNameLength),
});
export const updateLanguageSchema = z.object({
  name: z.string().trim().min(1, T.name).max(LANGUAGE_LIMITS.maxNameLength),
  enabled: z.boolean(),
});

export const translatedCollectionSchema = z.enum(TRANSLATED_COLLECTIONS);

const translationSchema = z.object({
  text: z.string(),
  /** The English changed after this translation was made (it is still served). */
  stale: z.boolean(),
  /** The English it was made from. */
  sourceThen: z.string(),
  updatedAt: z.string(),
  updatedByName: z.string().nullable(),
});

export const recordTranslationsSchema = z.object({
  collection: translatedCollectionSchema,
  recordId: z.string(),
  name: z.string(),
  /** The record's edit version: a save names it (409 when someone saved since). */
  version: z.number().int(),
  languages: z.array(languageSchema),
  fields: z.array(
    z.object({ field: z.string(), label: z.string(), source: z.string(), translations: z.record(z.string(), translationSchema) }),
  ),
});
export type RecordTranslations = z.infer<typeof recordTranslationsSchema>;

export const saveTranslationsSchema = z.object({
  version: z.number().int().min(0),
  /** Field → its translation ('' removes it). */
  texts: z.record(z.string().max(300), z.string().max(LANGUAGE_LIMITS.maxTextLength, T.tooLong)).default({}),
  /** Fields whose translation is still right for the changed English. */
  confirm: z.array(z.string().max(300)).max(500).default([]),
});
export type SaveTranslationsInput = z.infer<typeof saveTranslationsSchema>;

export const completenessSchema = z.object({
  languages: z.array(languageSchema),
  items: z.array(
    z.object({
      collection: translatedCollectionSchema,
      lang: z.string(),
      total: z.number().int(),
      translated: z.number().int(),
      stale: z.number().int(),
      missing: z.number().int(),
    }),
  ),
});
export type Completeness = z.infer<typeof completenessSchema>;

export const translationStatusQuerySchema = z.object({
  lang: languageCodeSchema,
  filter: z.enum(['all', 'missing', 'stale']).default('all'),
});
export const translationStatusListSchema = z.object({
  collection: translatedCollectionSchema,
  lang: z.string(),
  items: z.array(
    z.object({ recordId: z.string(), name: z.string(), fields: z.number().int(), missing: z.number().int(), stale: z.number().int() }),
  ),
});
export type TranslationStatusList = z.infer<typeof translationStatusListSchema>;

export const translationFileQuerySchema = z.object({
  lang: languageCodeSchema,
  format: z.enum(['xliff', 'csv', 'xlsx']).default('xliff'),
});

export const translationImportQuerySchema = z.object({
  lang: languageCodeSchema,
  /** stop (the default): nothing is written while a unit has an error; skip: the others are. */
  onErrors: z.enum(['stop', 'skip']).default('stop'),
});

export const translationImportPreviewSchema = z.object({
  fileName: z.string(),
  lang: z.string(),
  units: z.number().int(),
  counts: z.object({ changed: z.number().int(), unchanged: z.number().int(), error: z.number().int() }),
  rows: z.array(
    z.object({
      index: z.number().int(),
      unit: z.string(),
      record: z.string().nullable(),
      field: z.string().nullable(),
      status: z.enum(['new', 'updated', 'removed', 'unchanged', 'error']),
      error: z.string().nullable(),
    }),
  ),
  /** The collections whose changes would wait for review (their changes need review now), by label. */
  forReview: z.array(z.string()),
});
export type TranslationImportPreview = z.infer<typeof translationImportPreviewSchema>;

export const translationImportReportSchema = z.object({
  fileName: z.string(),
  lang: z.string(),
  changed: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
  /** The pending changes the file became, one per collection whose changes need review: their translations wait there. */
  forReview: z.array(z.object({ id: z.string(), collection: z.string(), label: z.string(), units: z.number().int() })),
});
export type TranslationImportReport = z.infer<typeof translationImportReportSchema>;
