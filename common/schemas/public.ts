import { z } from './zod.js';
import { varietySchema } from './varieties.js';

/** The read-only content API for the farmer app (no session). Field names follow docs/PRODUCT.md section 3. */
export const syncQuerySchema = z.object({
  updatedSince: z.iso.datetime({ offset: true, error: 'updatedSince must be an ISO-8601 date-time, e.g. 2025-01-31T00:00:00Z' }).optional(),
  /** A language (fil, pam, ilo, pag, tl…; else Accept-Language): each text in it where translated, else English. An unknown one is English. */
  lang: z.string().max(64).optional(),
});

/**
 * With a language asked: the translated fields that came in English (not translated yet), each
 * 'en'; a field left out came in the language asked. A list of option values is named, one
 * language per value, when any of its values is English. The fields are named (a record of
 * unions costs a failed try per list on every item of every answer); any other is kept.
 */
const servedIn = z.string().optional();
const servedInEach = z.array(z.string()).optional();
const fieldLanguages = <T extends Record<string, typeof servedIn | typeof servedInEach>>(fields: T) =>
  z
    .object(fields)
    .catchall(z.union([z.string(), z.array(z.string())]))
    .optional();
const catalogFieldLanguagesSchema = fieldLanguages({
  name: servedIn,
  description: servedIn,
  cause: servedIn,
  symptoms: servedIn,
  treatments: servedIn,
  affectedParts: servedInEach,
});
const varietyFieldLanguagesSchema = fieldLanguages({
  location: servedIn,
  season: servedInEach,
  environment: servedInEach,
  plantingMethod: servedIn,
});
const optionFieldLanguagesSchema = fieldLanguages({
  seasons: servedInEach,
  environments: servedInEach,
  plantingMethods: servedInEach,
  affectedParts: servedInEach,
});

export const varietyQuerySchema = syncQuerySchema.extend({
  recommendedInTarlac: z.enum(['true', 'false'], { error: 'recommendedInTarlac must be true or false' }).optional(),
});

/** A variety as the app sees it: the console's own shape without the edit bookkeeping. */
export const publicVarietySchema = varietySchema.omit({ version: true }).extend({ fieldLanguages: varietyFieldLanguagesSchema });

export const publicImageSchema = z.object({
  id: z.string(),
  displayUrl: z.string(),
  thumbnailUrl: z.string(),
  width: z.number().nullable(),
  height: z.number().nullable(),
});

export const publicCatalogEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  scientificName: z.string().nullable(),
  /** The Filipino name farmers know. */
  localName: z.string().nullable(),
  /** Parts of the plant it shows on (diseases; empty for pests), values of options.affectedParts. */
  affectedParts: z.array(z.string()),
  description: z.string().nullable(),
  cause: z.string().nullable(),
  symptoms: z.string().nullable(),
  treatments: z.string().nullable(),
  mainImage: publicImageSchema.nullable(),
  images: z.array(publicImageSchema),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  fieldLanguages: catalogFieldLanguagesSchema,
});

const page = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    /** Ids deleted since `updatedSince` (empty without it): remove them on the phone. */
    deleted: z.array(z.string()),
    /** Pass this as the next `updatedSince`. */
    serverTime: z.string(),
    /** The language asked and served (where translated), when one was asked. */
    language: z.string().optional(),
  });

export const publicVarietiesSchema = page(publicVarietySchema);
export const publicCatalogSchema = page(publicCatalogEntrySchema);
export const publicOptionsSchema = z.object({
  seasons: z.array(z.string()),
  plantingMethods: z.array(z.string()),
  environments: z.array(z.string()),
  yearReleases: z.array(z.string()),
  /** The parts of the rice plant a disease's affectedParts name, in the department's order. */
  affectedParts: z.array(z.string()),
  language: z.string().optional(),
  fieldLanguages: optionFieldLanguagesSchema,
});
