import { z } from 'zod';

/** The option-list documents of SPEC.md section 3 and their defaults (section 9). */
export const VARIETY_ENUMS_ID = 'rice_varieties_enums';
export const ACCOUNT_ENUMS_ID = 'accounts_enums';

export const DEFAULT_SEASONS = ['Dry', 'Wet'];
export const DEFAULT_PLANTING_METHODS = ['Direct Seed', 'Transplanting'];
export const DEFAULT_ENVIRONMENTS = ['Low Irrigated Land', 'Rainfed Lowland', 'Upperland'];
export const DEFAULT_SECURITY_QUESTIONS = [
  "What is your mother's maiden name?",
  "What was the name of your first pet?",
  "What is the name of your favourite teacher?",
  'In what city were you born?',
  'What was the name of your first school?',
];
export const FIRST_RELEASE_YEAR = 2012;

/** 2012 up to the given year, as text (yearRelease is text in SPEC.md section 3). */
export function defaultYearReleases(currentYear = new Date().getFullYear()): string[] {
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

export const optionListsSchema = z.object({
  riceVarieties: varietyEnumsSchema,
  accounts: accountEnumsSchema,
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
