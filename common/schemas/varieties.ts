import { z } from './zod.js';
import { LIMITS } from '../limits.js';
import { VARIETY_LABELS, VARIETY_MESSAGES as M, type VarietyField } from '../varieties.js';
import type { VarietyEnums } from './maintenance.js';

/**
 * The rice variety schemas. `varietyInputSchema` is both the add/edit form's schema and the
 * API's body schema: the same rules and the same texts, field by field (docs/PRODUCT.md section 5).
 * Numbers arrive as text from the form and as text or numbers from API clients.
 */
export const VARIETY_LIMITS = {
  textMax: LIMITS.maxShortTextLength,
  /** Whole numbers (days, cm, tillers): generous, but inside the database's integer range. */
  wholeMax: 100_000,
  yieldMax: 1_000,
  listMax: 50,
  searchMax: 200,
} as const;

function requiredText(field: VarietyField, message: string = M.required(VARIETY_LABELS[field])) {
  return z.string({ error: message }).trim().min(1, message).max(VARIETY_LIMITS.textMax, M.tooLong(VARIETY_LIMITS.textMax));
}

const numberLike = (message: string) => z.union([z.string(), z.number()], { error: message }).nullish();

/** Maturity days, tillers, plant height: 'Enter a whole number.' */
function wholeNumber(field: VarietyField) {
  return numberLike(M.wholeNumber).transform((value, ctx): number => {
    const text = value === null || value === undefined ? '' : String(value).trim();
    if (text === '') {
      ctx.addIssue({ code: 'custom', message: M.required(VARIETY_LABELS[field]) });
      return z.NEVER;
    }
    if (!/^\d+$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: M.wholeNumber });
      return z.NEVER;
    }
    const n = Number(text);
    if (n > VARIETY_LIMITS.wholeMax) {
      ctx.addIssue({ code: 'custom', message: M.tooLarge(VARIETY_LIMITS.wholeMax) });
      return z.NEVER;
    }
    return n;
  });
}

/** Average and max yield: non-negative decimals, 'Enter a valid number (e.g., 3 or 4.3).' */
function decimal(field: VarietyField) {
  return numberLike(M.decimal).transform((value, ctx): number => {
    const text = value === null || value === undefined ? '' : String(value).trim();
    if (text === '') {
      ctx.addIssue({ code: 'custom', message: M.required(VARIETY_LABELS[field]) });
      return z.NEVER;
    }
    if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: M.decimal });
      return z.NEVER;
    }
    const n = Number(text);
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: M.decimal });
      return z.NEVER;
    }
    if (n > VARIETY_LIMITS.yieldMax) {
      ctx.addIssue({ code: 'custom', message: M.tooLarge(VARIETY_LIMITS.yieldMax) });
      return z.NEVER;
    }
    return n;
  });
}

/** A non-empty list of option values, trimmed and without repeats. */
function optionList(message: string) {
  return z
    .array(z.string({ error: message }).trim().min(1, message).max(VARIETY_LIMITS.textMax, M.tooLong(VARIETY_LIMITS.textMax)), {
      error: message,
    })
    .max(VARIETY_LIMITS.listMax, message)
    .transform((list) => [...new Set(list)])
    .refine((list) => list.length > 0, message);
}

export const varietyInputSchema = z.object({
  varietyName: requiredText('varietyName'),
  releaseName: requiredText('releaseName'),
  yearRelease: requiredText('yearRelease'),
  breedingCode: requiredText('breedingCode'),
  breederOrigin: requiredText('breederOrigin'),
  maturityDays: wholeNumber('maturityDays'),
  averageYield: decimal('averageYield'),
  maxYield: decimal('maxYield'),
  plantHeight: wholeNumber('plantHeight'),
  tillers: wholeNumber('tillers'),
  location: requiredText('location'),
  season: optionList(M.seasonRequired),
  plantingMethod: requiredText('plantingMethod', M.plantingMethodRequired),
  environment: optionList(M.environmentRequired),
  recommendedInTarlac: z.boolean({ error: 'Choose Yes or No.' }).optional().default(false),
});
export type VarietyInput = z.output<typeof varietyInputSchema>;
export type VarietyFormValues = z.input<typeof varietyInputSchema>;

/** PUT body: the form's fields and the version the user edited (optimistic concurrency). */
export const varietyUpdateSchema = varietyInputSchema.extend({
  version: z.number({ error: 'The record version is missing.' }).int().positive(),
});

/**
 * Season, planting method and environment must be members of the current option lists;
 * the year must be one of the year-release list (or the value the record already holds,
 * since older releases predate the list). Each failure carries the field's own message.
 */
export function optionErrors(
  value: Pick<VarietyInput, 'season' | 'environment' | 'plantingMethod' | 'yearRelease'>,
  enums: VarietyEnums,
  keep: { yearRelease?: string | null | undefined } = {},
): Partial<Record<VarietyField, string>> {
  const errors: Partial<Record<VarietyField, string>> = {};
  if (value.season.some((s) => !enums.seasons.includes(s))) errors.season = M.seasonRequired;
  if (!enums.plantingMethods.includes(value.plantingMethod)) errors.plantingMethod = M.plantingMethodRequired;
  if (value.environment.some((e) => !enums.environments.includes(e))) errors.environment = M.environmentRequired;
  if (!enums.yearReleases.includes(value.yearRelease) && value.yearRelease !== keep.yearRelease) {
    errors.yearRelease = M.required(VARIETY_LABELS.yearRelease);
  }
  return errors;
}

/** The form's schema once the option lists are known: the input rules plus list membership. */
export function varietyFormSchema(enums: VarietyEnums | undefined, keep: { yearRelease?: string | null | undefined } = {}) {
  return varietyInputSchema.superRefine((value, ctx) => {
    if (!enums) return;
    for (const [path, message] of Object.entries(optionErrors(value, enums, keep))) {
      ctx.addIssue({ code: 'custom', path: [path], message });
    }
  });
}

/**
 * The stored shape, as the demo data and exports carry it: only the name is required,
 * fields no source gave stay empty (the seed must not invent numbers).
 */
export const varietyStoredSchema = z.object({
  varietyName: z.string().trim().min(1).max(VARIETY_LIMITS.textMax),
  releaseName: z.string().trim().max(VARIETY_LIMITS.textMax).nullish(),
  yearRelease: z.union([z.string(), z.number()]).transform(String).pipe(z.string().trim().max(VARIETY_LIMITS.textMax)).nullish(),
  breedingCode: z.string().trim().max(VARIETY_LIMITS.textMax).nullish(),
  breederOrigin: z.string().trim().max(VARIETY_LIMITS.textMax).nullish(),
  maturityDays: z.number().int().min(0).max(VARIETY_LIMITS.wholeMax).nullish(),
  averageYield: z.number().min(0).max(VARIETY_LIMITS.yieldMax).nullish(),
  maxYield: z.number().min(0).max(VARIETY_LIMITS.yieldMax).nullish(),
  plantHeight: z.number().int().min(0).max(VARIETY_LIMITS.wholeMax).nullish(),
  tillers: z.number().int().min(0).max(VARIETY_LIMITS.wholeMax).nullish(),
  location: z.string().trim().max(VARIETY_LIMITS.textMax).nullish(),
  season: z.array(z.string().trim().min(1)).max(VARIETY_LIMITS.listMax).nullish(),
  plantingMethod: z.string().trim().max(VARIETY_LIMITS.textMax).nullish(),
  environment: z.array(z.string().trim().min(1)).max(VARIETY_LIMITS.listMax).nullish(),
  recommendedInTarlac: z.boolean().nullish(),
});
export type VarietyStoredInput = z.output<typeof varietyStoredSchema>;

/** A variety as the API presents it. */
export const varietySchema = z.object({
  id: z.string(),
  varietyName: z.string(),
  releaseName: z.string().nullable(),
  yearRelease: z.string().nullable(),
  breedingCode: z.string().nullable(),
  breederOrigin: z.string().nullable(),
  maturityDays: z.number().nullable(),
  averageYield: z.number().nullable(),
  maxYield: z.number().nullable(),
  plantHeight: z.number().nullable(),
  tillers: z.number().nullable(),
  location: z.string().nullable(),
  season: z.array(z.string()),
  plantingMethod: z.string().nullable(),
  environment: z.array(z.string()),
  recommendedInTarlac: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  version: z.number(),
});
export type Variety = z.infer<typeof varietySchema>;

export const varietyListQuerySchema = z.object({
  search: z.string().trim().max(VARIETY_LIMITS.searchMax, M.tooLong(VARIETY_LIMITS.searchMax)).optional().default(''),
  page: z.coerce
    .number({ error: 'Page must be a whole number.' })
    .int('Page must be a whole number.')
    .min(1, 'Page must be a whole number.')
    .max(1_000_000)
    .optional()
    .default(1),
});

export const varietyListSchema = z.object({
  items: z.array(varietySchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  pageCount: z.number(),
  /** False when the search matched more than LIMITS.varietyExactCountCap: total and pageCount are estimates. */
  exact: z.boolean(),
});
export type VarietyList = z.infer<typeof varietyListSchema>;

export const varietyIdParamsSchema = z.object({ id: z.string().min(1).max(100) });

/** The form's values for a stored variety (numbers as text, empty where nothing is stored). */
export function varietyToFormValues(v: Variety): VarietyFormValues {
  const num = (n: number | null) => (n === null ? '' : String(n));
  return {
    varietyName: v.varietyName,
    releaseName: v.releaseName ?? '',
    yearRelease: v.yearRelease ?? '',
    breedingCode: v.breedingCode ?? '',
    breederOrigin: v.breederOrigin ?? '',
    maturityDays: num(v.maturityDays),
    averageYield: num(v.averageYield),
    maxYield: num(v.maxYield),
    plantHeight: num(v.plantHeight),
    tillers: num(v.tillers),
    location: v.location ?? '',
    season: [...v.season],
    plantingMethod: v.plantingMethod ?? '',
    environment: [...v.environment],
    recommendedInTarlac: v.recommendedInTarlac,
  };
}

export const EMPTY_VARIETY_FORM: VarietyFormValues = {
  varietyName: '',
  releaseName: '',
  yearRelease: '',
  breedingCode: '',
  breederOrigin: '',
  maturityDays: '',
  averageYield: '',
  maxYield: '',
  plantHeight: '',
  tillers: '',
  location: '',
  season: [],
  plantingMethod: '',
  environment: [],
  recommendedInTarlac: false,
};
