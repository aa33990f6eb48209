import { byCatalogCollection, CATALOG_COLLECTIONS } from './catalog.js';
import { CATALOG_TRANSLATED_FIELDS, catalogLabels } from './catalog-fields.js';
import { LIMITS } from './limits.js';
import { MAINTENANCE, MAINTENANCE_LIMITS } from './maintenance.js';
import { VARIETIES } from './varieties.js';

/**
 * The farmers' languages: English is the source of every farmer-facing text; translations into
 * the department's languages (managed data, File Maintenance) are kept beside it field by
 * field, each with the English it was made from (server/modules/content/translations).
 */
export const SOURCE_LANGUAGE = 'en';

/** Filipino is on from the start (migration 198); these are offered when a super admin adds a language. */
export const SUGGESTED_LANGUAGES = [
  { code: 'fil', name: 'Filipino' },
  { code: 'pam', name: 'Kapampangan' },
  { code: 'ilo', name: 'Ilocano' },
  { code: 'pag', name: 'Pangasinan' },
] as const;

/** ISO 639-1 or 639-2/3 codes: two or three lower-case letters. */
export const LANGUAGE_CODE = /^[a-z]{2,3}$/;

/**
 * Tags a phone may send (Accept-Language, ?lang=) read as one of ours: Tagalog's codes are
 * Filipino's here (the app's Tagalog speakers read Filipino), and a region is ignored.
 */
export const LANGUAGE_ALIASES: Readonly<Record<string, string>> = { tl: 'fil', tgl: 'fil', fil: 'fil', pam: 'pam', ilo: 'ilo', pag: 'pag' };

/**
 * The language a phone asked for (?lang= or Accept-Language, in its order of preference), as
 * one of the languages in use, or null (English). Unknown tags are passed over, never an error.
 */
export function chooseLanguage(asked: readonly string[], available: readonly string[]): string | null {
  for (const raw of asked) {
    const tag = raw.trim().toLowerCase();
    const primary = tag.split(/[-_]/)[0] ?? '';
    if (primary === SOURCE_LANGUAGE) return null;
    const code = LANGUAGE_ALIASES[primary] ?? primary;
    if (available.includes(code)) return code;
  }
  return null;
}

/** Accept-Language's tags in order of preference (q=0 left out). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((t) => t.tag !== '' && t.tag !== '*' && t.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((t) => t.tag);
}

/** The collections with farmer-facing text, and which of their fields are translated. */
export const TRANSLATED_COLLECTIONS = [...CATALOG_COLLECTIONS, 'rice_seed_varieties', 'maintenance'] as const;
export type TranslatedCollection = (typeof TRANSLATED_COLLECTIONS)[number];

const catalogFields = catalogLabels(CATALOG_TRANSLATED_FIELDS);

/**
 * A record's translated fields with their labels. Variety names, release names, codes and
 * scientific names stay as they are; an option list's values are translated one by one (the
 * field is `<list>:<value>`, see optionField).
 */
export const TRANSLATED_FIELDS: Record<Exclude<TranslatedCollection, 'maintenance'>, Readonly<Record<string, string>>> = {
  ...byCatalogCollection(() => catalogFields),
  rice_seed_varieties: { location: VARIETIES.columns.location },
};

/** The option lists whose values reach the farmer app, by document. */
export const TRANSLATED_LISTS = {
  rice_varieties_enums: ['seasons', 'environments', 'plantingMethods'],
  rice_diseases_enums: ['affectedParts'],
} as const;
export type TranslatedListDoc = keyof typeof TRANSLATED_LISTS;

export const optionField = (list: string, value: string) => `${list}:${value}`;
export function parseOptionField(field: string): { list: string; value: string } | null {
  const at = field.indexOf(':');
  return at > 0 ? { list: field.slice(0, at), value: field.slice(at + 1) } : null;
}
export function optionFieldLabel(field: string): string {
  const parsed = parseOptionField(field);
  if (!parsed) return field;
  const list = MAINTENANCE.lists[parsed.list as keyof typeof MAINTENANCE.lists];
  return `${list?.title ?? parsed.list}: ${parsed.value}`;
}

/** A translation's name in versions and History: "Symptoms (fil)", "Seasons: Dry (pam)". */
export function translationKeyLabel(collection: string, key: string): string {
  const at = key.lastIndexOf('@');
  if (at <= 0) return key;
  const field = key.slice(0, at);
  const lang = key.slice(at + 1);
  const labels = (TRANSLATED_FIELDS as Record<string, Readonly<Record<string, string>>>)[collection];
  return `${labels?.[field] ?? optionFieldLabel(field)} (${lang})`;
}

/** The longest a translation may be: its English field's own limit (a name or a location is short). */
export function translationLimit(collection: string, field: string): number {
  if (collection === 'maintenance') return MAINTENANCE_LIMITS.maxValueLength;
  if (collection === 'rice_seed_varieties' || field === 'name') return LIMITS.maxShortTextLength;
  return LIMITS.maxTextLength;
}

export const LANGUAGE_LIMITS = {
  maxLanguages: 20,
  maxNameLength: 60,
  maxTextLength: 20_000,
  /** A translators' file (XLIFF, CSV or XLSX). */
  maxImportBytes: 16 * 1024 * 1024,
  maxImportUnits: 50_000,
} as const;

export const LANGUAGE_TEXTS = {
  title: 'Languages',
  subtitle: "The farmers' languages: English is the source; translations are kept field by field.",
  add: 'Add language',
  code: 'Language code',
  name: 'Display name',
  enabled: 'In use',
  source: 'English',
  translation: 'Translation',
  editorTitle: (language: string) => `Translate into ${language}`,
  stale: 'English changed since',
  staleHelp: 'The English text changed after this translation was made. It is still served until it is updated or confirmed.',
  confirm: 'Still correct',
  missing: 'Not translated',
  translated: 'Translated',
  completeness: 'Translations',
  filters: {
    all: 'All',
    missing: (language: string) => `Missing in ${language}`,
    stale: (language: string) => `Needs update in ${language}`,
  },
  errors: {
    code: 'Enter the language code: two or three lower-case letters (for example pam for Kapampangan).',
    english: 'English is the source language, not a translation.',
    exists: 'This language is already in the list.',
    name: "Enter the language's name.",
    tooMany: `At most ${LANGUAGE_LIMITS.maxLanguages} languages.`,
    unknownLanguage: 'This language is not in the list of languages.',
    notTranslated: 'This field is not translated.',
    tooLong: `A translation may have at most ${LANGUAGE_LIMITS.maxTextLength} characters.`,
  },
  import: {
    tooLarge: `The file is larger than ${LANGUAGE_LIMITS.maxImportBytes / 1024 / 1024} MB. Export fewer collections at a time, or split it into smaller files.`,
    brokenXml: 'This file is not a readable XLIFF 2.0 document.',
    longComment:
      "This XLIFF file holds a comment longer than 64 KB, which no translators' file needs. Remove it, then import the file again.",
    notUtf8: "This XLIFF file is not UTF-8 text. Save it again as UTF-8 (the export's own encoding), then import it.",
    doctype: 'XLIFF files with a document type declaration are not accepted.',
    wrongSource: (lang: string) => `The file's source language is ${lang}; it must be English (en).`,
    wrongTarget: (lang: string, expected: string) => `The file is for ${lang || 'no language'}; this import is for ${expected}.`,
    unknownUnit: 'No record or field of the console has this unit id.',
    sourceChanged: 'The English changed since this file was exported; the translation is kept and marked "English changed since".',
    noUnits: 'The file holds no translation units.',
    tooManyUnits: `At most ${LANGUAGE_LIMITS.maxImportUnits} units a file.`,
    segments: 'This unit is split into segments: join them into one, then import again.',
    inline: 'This translation holds inline codes (tags): write it as plain text.',
    changedSince: 'The translation was changed in the console after this file was exported: export again, or change it in the console.',
    wrongLanguageRow: 'This row is for another language.',
    options: 'Option values are translated by super admins.',
    tooLong: (max: number) => `At most ${max} characters.`,
    nothingLeft: 'Every translation of this file is already in the console, or its record was deleted: withdraw this change.',
    hasErrors: (n: number) =>
      `${n} ${n === 1 ? 'unit has' : 'units have'} errors: nothing was imported. Fix them, or import the others only.`,
  },
} as const;
