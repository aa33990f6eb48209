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

/**
 * The fields a new variety must have besides its name (docs/PRODUCT.md section 5). A stored
 * variety may lack some (the demo data and imports keep what their sources gave): on an edit,
 * those may stay empty; the name never may.
 */
export type CompletableField = Exclude<VarietyField, 'varietyName' | 'recommendedInTarlac'>;
export const COMPLETABLE_VARIETY_FIELDS = (Object.keys(VARIETY_LABELS) as VarietyField[]).filter(
  (f): f is CompletableField => f !== 'varietyName' && f !== 'recommendedInTarlac',
) as [CompletableField, ...CompletableField[]];

/** The required fields a stored variety lacks, in the form's order. */
export function missingFields(v: { [F in CompletableField]: unknown }): CompletableField[] {
  return COMPLETABLE_VARIETY_FIELDS.filter((f) => {
    const value = v[f];
    return value === null || value === undefined || (Array.isArray(value) ? value.length === 0 : String(value).trim() === '');
  });
}

/** A text field; `mayStayEmpty`: empty is null instead of `message`. */
function textField(field: VarietyField, mayStayEmpty: boolean, message: string = M.required(VARIETY_LABELS[field])) {
  const text = z.string({ error: message }).trim().max(VARIETY_LIMITS.textMax, M.tooLong(VARIETY_LIMITS.textMax));
  return mayStayEmpty ? text.nullish().transform((v): string | null => (v ? v : null)) : text.min(1, message);
}

const numberLike = (message: string) => z.union([z.string(), z.number()], { error: message }).nullish();

/** Shared by the number fields: empty is null where it may stay so, else the field's required message. */
function emptyNumber(field: VarietyField, mayStayEmpty: boolean, ctx: z.RefinementCtx): null | typeof z.NEVER {
  if (mayStayEmpty) return null;
  ctx.addIssue({ code: 'custom', message: M.required(VARIETY_LABELS[field]) });
  return z.NEVER;
}

/** Maturity days, tillers, plant height: 'Enter a whole number.' */
function wholeNumber(field: VarietyField, mayStayEmpty: boolean) {
  return numberLike(M.wholeNumber).transform((value, ctx): number | null => {
    const text = value === null || value === undefined ? '' : String(value).trim();
    if (text === '') return emptyNumber(field, mayStayEmpty, ctx);
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
function decimal(field: VarietyField, mayStayEmpty: boolean) {
  return numberLike(M.decimal).transform((value, ctx): number | null => {
    const text = value === null || value === undefined ? '' : String(value).trim();
    if (text === '') return emptyNumber(field, mayStayEmpty, ctx);
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

/** A list of option values, trimmed and without repeats; non-empty unless it may stay empty. */
function optionList(message: string, mayStayEmpty: boolean) {
  return z
    .array(z.string({ error: message }).trim().min(1, message).max(VARIETY_LIMITS.textMax, M.tooLong(VARIETY_LIMITS.textMax)), {
      error: message,
    })
    .max(VARIETY_LIMITS.listMax, message)
    .transform((list) => [...new Set(list)])
    .refine((list) => mayStayEmpty || list.length > 0, message);
}

/** The form's and the API's rules, with the fields that may stay empty. */
function varietyRules(mayStayEmpty: ReadonlySet<VarietyField>) {
  const empty = (f: VarietyField) => mayStayEmpty.has(f);
  return z.object({
    varietyName: textField('varietyName', false) as z.ZodString,
    releaseName: textField('releaseName', empty('releaseName')),
    yearRelease: textField('yearRelease', empty('yearRelease')),
    breedingCode: textField('breedingCode', empty('breedingCode')),
    breederOrigin: textField('breederOrigin', empty('breederOrigin')),
    maturityDays: wholeNumber('maturityDays', empty('maturityDays')),
    averageYield: decimal('averageYield', empty('averageYield')),
    maxYield: decimal('maxYield', empty('maxYield')),
    plantHeight: wholeNumber('plantHeight', empty('plantHeight')),
    tillers: wholeNumber('tillers', empty('tillers')),
    location: textField('location', empty('location')),
    season: optionList(M.seasonRequired, empty('season')),
    plantingMethod: textField('plantingMethod', empty('plantingMethod'), M.plantingMethodRequired),
    environment: optionList(M.environmentRequired, empty('environment')),
    recommendedInTarlac: z.boolean({ error: 'Choose Yes or No.' }).optional().default(false),
    /** The user confirmed saving a name another live variety has (else 409 duplicate_name). */
    allowDuplicateName: z.boolean().optional(),
  });
}

/** A new variety: every field required. */
export const varietyInputSchema = varietyRules(new Set());
/** Saved values (an edit's may hold nulls where the record lacked them). */
export type VarietyInput = z.output<typeof varietyInputSchema>;
export type VarietyFormValues = z.input<typeof varietyInputSchema>;

/** The rules of an edit of `stored`: what it lacks may stay empty, the rest is required as on an add. */
export const varietyEditRules = (stored: { [F in CompletableField]: unknown }) => varietyRules(new Set(missingFields(stored)));

/**
 * PUT body: the form's fields and the version the user edited (optimistic concurrency). Any
 * field but the name may arrive empty here; the service checks the edit against the stored
 * record (varietyEditRules), which only it reads.
 */
export const varietyUpdateSchema = varietyRules(new Set(COMPLETABLE_VARIETY_FIELDS)).extend({
  version: z.number({ error: 'The record version is missing.' }).int().positive(),
});

/** What a stored record holds of the option fields: kept on an edit even when gone from the lists. */
export type KeptOptions = Partial<{
  season: readonly string[];
  environment: readonly string[];
  plantingMethod: string | null;
  yearRelease: string | null;
}>;

/**
 * Season, planting method and environment must be members of the current option lists, and the
 * year one of the year-release list, except values the record already holds (`keep`): older
 * releases predate the list, and a value taken off a list stays on the records that have it.
 * Each failure carries the field's own message. An empty value is the field rules' concern.
 */
export function optionErrors(
  value: Pick<VarietyInput, 'season' | 'environment' | 'plantingMethod' | 'yearRelease'>,
  enums: VarietyEnums,
  keep: KeptOptions = {},
): Partial<Record<VarietyField, string>> {
  const errors: Partial<Record<VarietyField, string>> = {};
  const allowed = (v: string | null, list: readonly string[], kept: string | null | undefined) =>
    v === null || list.includes(v) || v === kept;
  if (value.season.some((s) => !enums.seasons.includes(s) && !keep.season?.includes(s))) errors.season = M.seasonRequired;
  if (!allowed(value.plantingMethod, enums.plantingMethods, keep.plantingMethod)) errors.plantingMethod = M.plantingMethodRequired;
  if (value.environment.some((e) => !enums.environments.includes(e) && !keep.environment?.includes(e)))
    errors.environment = M.environmentRequired;
  if (!allowed(value.yearRelease, enums.yearReleases, keep.yearRelease)) errors.yearRelease = M.required(VARIETY_LABELS.yearRelease);
  return errors;
}

/** The form's schema once the option lists are known: the add's or the edit's rules plus list membership. */
export function varietyFormSchema(enums: VarietyEnums | undefined, stored: Variety | null = null) {
  return (stored ? varietyEditRules(stored) : varietyInputSchema).superRefine((value, ctx) => {
    if (!enums) return;
    for (const [path, message] of Object.entries(optionErrors(value, enums, stored ?? {}))) {
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

/** The list's sortable columns, in the order its header shows them. */
export const VARIETY_SORTS = ['name', 'year', 'maturity', 'yield', 'added'] as const;
export type VarietySort = (typeof VARIETY_SORTS)[number];

export const varietyListQuerySchema = z.object({
  search: z.string().trim().max(VARIETY_LIMITS.searchMax, M.tooLong(VARIETY_LIMITS.searchMax)).optional().default(''),
  page: z.coerce
    .number({ error: 'Page must be a whole number.' })
    .int('Page must be a whole number.')
    .min(1, 'Page must be a whole number.')
    .max(1_000_000)
    .optional()
    .default(1),
  /** The column the list is sorted by: when it was added (newest first unless `dir` says), name, year, maturity, yield. */
  sort: z.enum(VARIETY_SORTS).optional().default('added'),
  dir: z.enum(['asc', 'desc']).optional(),
  /** Filters: Recommended in Tarlac (yes/no), a season, an environment, a release year, only records that need completing. */
  tarlac: z.enum(['yes', 'no']).optional(),
  season: z.string().trim().min(1).max(VARIETY_LIMITS.textMax).optional(),
  environment: z.string().trim().min(1).max(VARIETY_LIMITS.textMax).optional(),
  year: z.string().trim().min(1).max(VARIETY_LIMITS.textMax).optional(),
  missing: z.enum(['yes']).optional(),
});
export type VarietyListQuery = z.infer<typeof varietyListQuerySchema>;

/** The order a sort column runs in unless the list is told otherwise: the newest first, the rest ascending. */
export function defaultSortDir(sort: VarietySort): 'asc' | 'desc' {
  return sort === 'added' ? 'desc' : 'asc';
}

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

/** Whether another live variety has this name (trimmed, any case): the form asks while the user types. */
export const varietyNameQuerySchema = z.object({
  name: z.string().trim().min(1).max(VARIETY_LIMITS.textMax),
  except: z.string().max(100).optional(),
});
export const varietyNameTakenSchema = z.object({ taken: z.object({ id: z.string(), varietyName: z.string() }).nullable() });
export type VarietyNameTaken = z.infer<typeof varietyNameTakenSchema>;

/** Needs completing: live records that lack required fields, by name, each with what it lacks. */
export const incompleteVarietiesSchema = z.object({
  items: z.array(z.object({ id: z.string(), varietyName: z.string(), missing: z.array(z.enum(COMPLETABLE_VARIETY_FIELDS)) })),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  pageCount: z.number(),
});
export type IncompleteVarieties = z.infer<typeof incompleteVarietiesSchema>;
export const incompleteVarietiesQuerySchema = varietyListQuerySchema.pick({ page: true });

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
