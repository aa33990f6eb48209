import { z } from './zod.js';
import { TRASH_COLLECTIONS, TRASH_LIMITS } from '../trash.js';

export const trashParamsSchema = z.object({
  collection: z.enum(TRASH_COLLECTIONS, { error: 'Unknown collection.' }),
});

export const trashItemParamsSchema = trashParamsSchema.extend({ id: z.string().min(1).max(100) });

export const trashListQuerySchema = z.object({
  search: z
    .string()
    .trim()
    .max(TRASH_LIMITS.searchMax, `Search must be ${TRASH_LIMITS.searchMax} characters or fewer.`)
    .optional()
    .default(''),
  page: z.coerce
    .number({ error: 'Page must be a whole number.' })
    .int('Page must be a whole number.')
    .min(1, 'Page must be a whole number.')
    .max(1_000_000, 'Page must be a whole number.')
    .optional()
    .default(1),
});
export type TrashListQuery = z.output<typeof trashListQuerySchema>;

export const trashItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** A second line: a variety's release name, an entry's scientific name, an account's username. */
  detail: z.string().nullable(),
  /** Photos kept with a pest or disease (restored with it); null for other collections. */
  photoCount: z.number().nullable(),
  deletedAt: z.string().nullable(),
  deletedBy: z.object({ id: z.string(), fullname: z.string() }).nullable(),
});

export const trashListSchema = z.object({
  items: z.array(trashItemSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  pageCount: z.number(),
});
export type TrashList = z.infer<typeof trashListSchema>;
