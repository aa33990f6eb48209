import { z } from './zod.js';
import { MAINTENANCE, MAINTENANCE_LIMITS, type ListKey } from '../maintenance.js';

/** The option-list documents of docs/PRODUCT.md section 3 and their defaults (section 9). */
export const VARIETY_ENUMS_ID = 'rice_varieties_enums';
export const ACCOUNT_ENUMS_ID = 'accounts_enums';
export const DISEASE_ENUMS_ID = 'rice_diseases_enums';

export const DEFAULT_SEASONS = ['Dry', 'Wet'];
export const DEFAULT_PLANTING_METHODS = ['Direct Seed', 'Transplanting'];
export const DEFAULT_ENVIRONMENTS = ['Low Irrigated Land', 'Rainfed Lowland', 'Upperland'];
export const DEFAULT_SECURITY_QUESTIONS = [
  "What is your mother's maiden name?",
  'What was the name of your first pet?',
  'What is the name of your favourite teacher?',
  'In what city were you born?',
  'What was the name of your first school?',
];
/** The parts of the rice plant a disease shows on (the farmer app's affectedParts). */
export const DEFAULT_AFFECTED_PARTS = ['leaf', 'sheath', 'panicle', 'stem', 'grain', 'root'];
export const FIRST_RELEASE_YEAR = 2012;

/** The current year where the department works (Asia/Manila): the year-release list follows it. */
// One formatter for the process: each new Intl.DateTimeFormat with a time zone keeps some
// native memory that a collection does not give back, and this runs on every variety save.
let yearFormat: Intl.DateTimeFormat | undefined;

export function currentReleaseYear(now: Date = new Date()): number {
  yearFormat ??= new Intl.DateTimeFormat('en-US', { timeZone: MAINTENANCE_LIMITS.timeZone, year: 'numeric' });
  const year = yearFormat.format(now);
  const n = Number(year);
  return Number.isInteger(n) ? n : now.getUTCFullYear();
}

/** 2012 up to the given year, as text (yearRelease is text in docs/PRODUCT.md section 3). */
export function defaultYearReleases(currentYear = currentReleaseYear()): string[] {
  const years: string[] = [];
  for (let y = FIRST_RELEASE_YEAR; y <= currentYear; y += 1) years.push(String(y));
  return years;
}

export const varietyEnumsSchema = z.object({
  seasons: z.array(z.string()),
  plantingMethods: z.array(z.string()),
  environments: z.array(z.string()),
  yearReleases: z.array(z.string()),
});
export type VarietyEnums = z.infer<typeof varietyEnumsSchema>;

export const accountEnumsSchema = z.object({
  securityQuestions: z.array(z.string()),
});
export type AccountEnums = z.infer<typeof accountEnumsSchema>;

export const diseaseEnumsSchema = z.object({
  affectedParts: z.array(z.string()),
});
export type DiseaseEnums = z.infer<typeof diseaseEnumsSchema>;

export const optionListsSchema = z.object({
  riceVarieties: varietyEnumsSchema,
  accounts: accountEnumsSchema,
  diseases: diseaseEnumsSchema,
});
export type OptionLists = z.infer<typeof optionListsSchema>;

export function defaultVarietyEnums(): VarietyEnums {
  return {
    seasons: [...DEFAULT_SEASONS],
    plantingMethods: [...DEFAULT_PLANTING_METHODS],
    environments: [...DEFAULT_ENVIRONMENTS],
    yearReleases: defaultYearReleases(),
  };
}

export function defaultAccountEnums(): AccountEnums {
  return { securityQuestions: [...DEFAULT_SECURITY_QUESTIONS] };
}

export function defaultDiseaseEnums(): DiseaseEnums {
  return { affectedParts: [...DEFAULT_AFFECTED_PARTS] };
}

// ---------------------------------------------------------------------------------------
// File maintenance: the documents, their lists, and the bodies of the write routes.

export type { ListKey } from '../maintenance.js';
export type MaintenanceDocId = typeof VARIETY_ENUMS_ID | typeof ACCOUNT_ENUMS_ID | typeof DISEASE_ENUMS_ID;

/** Which lists each option-list document holds, in the order the screens show them. */
export const DOCUMENT_LISTS = {
  [VARIETY_ENUMS_ID]: ['seasons', 'plantingMethods', 'environments', 'yearReleases'],
  [ACCOUNT_ENUMS_ID]: ['securityQuestions'],
  [DISEASE_ENUMS_ID]: ['affectedParts'],
} as const satisfies Record<MaintenanceDocId, readonly ListKey[]>;

export const LIST_KEYS = [
  'seasons',
  'plantingMethods',
  'environments',
  'yearReleases',
  'securityQuestions',
  'affectedParts',
] as const satisfies readonly ListKey[];

export const maintenanceDocIdSchema = z.enum([VARIETY_ENUMS_ID, ACCOUNT_ENUMS_ID, DISEASE_ENUMS_ID]);
export const listKeySchema = z.enum(LIST_KEYS);

export function listBelongsTo(docId: MaintenanceDocId, list: ListKey): boolean {
  return (DOCUMENT_LISTS[docId] as readonly ListKey[]).includes(list);
}

/** The value check shared by the add form and the server: null when the value is fine. */
export function optionValueProblem(list: ListKey, value: string): string | null {
  const v = value.trim();
  if (v === '') return MAINTENANCE.errors.empty;
  if (v.length > MAINTENANCE_LIMITS.maxValueLength) return MAINTENANCE.errors.tooLong;
  if (list === 'yearReleases' && !/^\d{4}$/.test(v)) return MAINTENANCE.errors.year;
  return null;
}

/** Case-insensitive sameness of two options (docs/PRODUCT.md section 5: duplicates ignore case). */
export function sameOption(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase('en') === b.trim().toLocaleLowerCase('en');
}

/** Trimmed, without empty values, without case-insensitive duplicates (the first one stays). */
export function normalizeList(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of values) {
    const v = raw.trim();
    const key = v.toLocaleLowerCase('en');
    if (v === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(v);
  }
  return out;
}

/** The add form (browser) and the add route's body (server). Empty is checked separately: it does nothing. */
export const addOptionSchema = z.object({
  value: z.string().trim().max(MAINTENANCE_LIMITS.maxValueLength, MAINTENANCE.errors.tooLong),
});

export const removeOptionQuerySchema = z.object({
  value: z.string().max(MAINTENANCE_LIMITS.maxValueLength * 2, MAINTENANCE.errors.tooLong),
});

export const docParamsSchema = z.object({ docId: maintenanceDocIdSchema });
export const listParamsSchema = z.object({ docId: maintenanceDocIdSchema, list: listKeySchema });

const listValues = z
  .array(z.string().max(MAINTENANCE_LIMITS.maxValueLength, MAINTENANCE.errors.tooLong))
  .max(MAINTENANCE_LIMITS.maxItemsPerList, MAINTENANCE.errors.tooMany);

/** Save Changes: whole lists, written trimmed and deduplicated; `version` is the one the page edited. */
export const saveListsSchema = z.object({
  version: z.number().int().positive(),
  lists: z
    .object({
      seasons: listValues.optional(),
      plantingMethods: listValues.optional(),
      environments: listValues.optional(),
      yearReleases: listValues.optional(),
      securityQuestions: listValues.optional(),
      affectedParts: listValues.optional(),
    })
    .strict(),
});
export type SaveListsInput = z.infer<typeof saveListsSchema>;

export type MaintenanceLists = Partial<Record<ListKey, string[]>>;

/** One option-list document as the File maintenance screens read it. */
export const maintenanceDocumentSchema = z.object({
  id: maintenanceDocIdSchema,
  version: z.number().int(),
  updatedAt: z.string().nullable(),
  lists: z.object({
    seasons: z.array(z.string()).optional(),
    plantingMethods: z.array(z.string()).optional(),
    environments: z.array(z.string()).optional(),
    yearReleases: z.array(z.string()).optional(),
    securityQuestions: z.array(z.string()).optional(),
    affectedParts: z.array(z.string()).optional(),
  }),
  /** Security questions only: nothing is saved, so the five defaults apply (and are shown). */
  usingDefaults: z.boolean(),
});
export type MaintenanceDocument = z.infer<typeof maintenanceDocumentSchema>;

/** How many live records use each option: list → option → count. */
export const maintenanceUsageSchema = z.object({
  id: maintenanceDocIdSchema,
  /** 'varieties' for the rice variety lists, 'accounts' for security questions, 'diseases' for affected parts. */
  counts: z.enum(['varieties', 'accounts', 'diseases']),
  usage: z.record(z.string(), z.record(z.string(), z.number().int())),
});
export type MaintenanceUsage = z.infer<typeof maintenanceUsageSchema>;
