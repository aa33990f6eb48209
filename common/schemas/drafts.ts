import { z } from './zod.js';
import { LIMITS } from '../limits.js';
import { CATALOG_FIELD_KEYS, CATALOG_FIELDS, type CatalogField } from '../catalog-fields.js';
import { VARIETY_LABELS, type VarietyField } from '../varieties.js';

/** A chosen photo of a draft: its staged photo once uploaded, and the file it came from. */
export const draftPhotoSchema = z.object({
  id: z.string().min(1).max(64).nullable(),
  name: z.string().max(255),
  size: z.number().int().min(0).max(1e12),
  lastModified: z.number().min(0).max(1e14),
});

/** Each type of field as typed into the add form: nothing is required yet (a draft may be half filled). */
const DRAFT_RULES = {
  name: () => z.string().max(LIMITS.maxShortTextLength).default(''),
  shortText: () => z.string().max(LIMITS.maxShortTextLength).default(''),
  longText: () => z.string().max(LIMITS.maxTextLength).default(''),
  parts: () => z.array(z.string().max(200)).max(50).default([]),
  trainingFlag: () => z.boolean().default(false),
};

/** The add form as typed, field by field (common/catalog-fields.ts). */
export const draftFieldsSchema = z.object(
  Object.fromEntries(CATALOG_FIELD_KEYS.map((k) => [k, DRAFT_RULES[CATALOG_FIELDS[k].type]()])) as {
    [K in CatalogField]: ReturnType<(typeof DRAFT_RULES)[(typeof CATALOG_FIELDS)[K]['type']]>;
  },
);

export const draftInputSchema = z.object({
  fields: draftFieldsSchema,
  photos: z.array(draftPhotoSchema).max(2000),
});
export type DraftInput = z.infer<typeof draftInputSchema>;

export const draftSchema = z.object({
  fields: draftFieldsSchema,
  photos: z.array(draftPhotoSchema.extend({ thumbUrl: z.string().nullable() })),
  uploaded: z.number().int(),
  updatedAt: z.string(),
  /** When the draft is removed if it is not continued. */
  expiresAt: z.string(),
});
export type Draft = z.infer<typeof draftSchema>;

/** The variety form as typed: every value as the form holds it (numbers as text), nothing required. */
const varietyDraftValue = (field: VarietyField) =>
  field === 'season' || field === 'environment'
    ? z.array(z.string().max(LIMITS.maxShortTextLength)).max(50).default([])
    : field === 'recommendedInTarlac'
      ? z.boolean().default(false)
      : z.string().max(LIMITS.maxShortTextLength).default('');

export const varietyDraftFieldsSchema = z.object(
  Object.fromEntries((Object.keys(VARIETY_LABELS) as VarietyField[]).map((f) => [f, varietyDraftValue(f)])) as {
    [F in VarietyField]: ReturnType<typeof varietyDraftValue>;
  },
);

/** A variety form kept as its account's draft: a new record's (recordId null) or an edit's, with the version it edits. */
export const varietyDraftInputSchema = z.object({
  recordId: z.string().min(1).max(100).nullable(),
  version: z.number().int().min(0).nullable(),
  fields: varietyDraftFieldsSchema,
});
export type VarietyDraftInput = z.infer<typeof varietyDraftInputSchema>;

export const varietyDraftSchema = varietyDraftInputSchema.extend({ updatedAt: z.string(), expiresAt: z.string() });
export type VarietyDraft = z.infer<typeof varietyDraftSchema>;
