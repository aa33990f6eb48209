import { z } from './zod.js';
import { HISTORY, HISTORY_ACTIONS, HISTORY_COLLECTIONS, HISTORY_DATE_RANGES, HISTORY_LIMITS } from '../history.js';
import { isValidDay } from '../history-dates.js';

const day = z.string().trim().refine(isValidDay, HISTORY.errors.badDate).optional();

/**
 * The filters of the history list, its count and its CSV export. They travel in the URL
 * (query string) of the screen and of the API, so a view can be bookmarked and shared.
 */
export const historyFiltersObject = z.object({
  range: z.enum(HISTORY_DATE_RANGES, { error: HISTORY.errors.badRange }).default('all'),
  from: day,
  to: day,
  action: z.enum(HISTORY_ACTIONS, { error: HISTORY.errors.badAction }).optional(),
  collection: z.enum(HISTORY_COLLECTIONS, { error: HISTORY.errors.badCollection }).optional(),
  /** An actor id: the entry's userId, or actorId / performedBy for older entries. */
  user: z.string().trim().min(1).max(200, HISTORY.errors.tooLong).optional(),
  q: z.string().trim().max(HISTORY_LIMITS.maxSearchLength, HISTORY.errors.tooLong).optional(),
});

function checkDates(value: { range: string; from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx): void {
  if (value.range !== 'custom') {
    if (value.from) ctx.addIssue({ code: 'custom', path: ['from'], message: HISTORY.errors.datesNeedCustom });
    if (value.to) ctx.addIssue({ code: 'custom', path: ['to'], message: HISTORY.errors.datesNeedCustom });
    return;
  }
  if (!value.from && !value.to) ctx.addIssue({ code: 'custom', path: ['from'], message: HISTORY.errors.customNeedsDate });
  if (value.from && value.to && value.from > value.to) ctx.addIssue({ code: 'custom', path: ['to'], message: HISTORY.errors.fromAfterTo });
}

export const historyFiltersSchema = historyFiltersObject.superRefine(checkDates);
export type HistoryFilters = z.infer<typeof historyFiltersSchema>;

export const historyListQuerySchema = historyFiltersObject
  .extend({
    cursor: z.string().max(300).optional(),
    limit: z.coerce
      .number({ error: HISTORY.errors.badLimit })
      .int(HISTORY.errors.badLimit)
      .min(1, HISTORY.errors.badLimit)
      .max(HISTORY_LIMITS.maxPageSize, HISTORY.errors.badLimit)
      .default(HISTORY_LIMITS.pageSize),
  })
  .superRefine(checkDates);
export type HistoryListQuery = z.infer<typeof historyListQuerySchema>;

export const historyEntrySchema = z.object({
  id: z.string(),
  timestamp: z.string(),
  /** The actor: userId, else actorId, else performedBy. */
  userId: z.string().nullable(),
  /** The actor's name as recorded, else the account's current name, else the actor id. */
  userName: z.string(),
  userEmail: z.string().nullable(),
  action: z.string(),
  collection: z.string().nullable(),
  documentId: z.string().nullable(),
  /** documentName, else `name` for older entries. */
  documentName: z.string().nullable(),
  description: z.string().nullable(),
  hasChanges: z.boolean(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const historyPageSchema = z.object({
  items: z.array(historyEntrySchema),
  nextCursor: z.string().nullable(),
});
export type HistoryPage = z.infer<typeof historyPageSchema>;

export const historyDetailSchema = historyEntrySchema.extend({
  changes: z.object({ before: z.unknown(), after: z.unknown() }).nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  /** The version of the record this entry's save made (varieties, pests, diseases, option lists). */
  version: z.object({ collection: z.string(), documentId: z.string(), number: z.number().int() }).nullable().optional(),
});
export type HistoryDetail = z.infer<typeof historyDetailSchema>;

export const historyCountSchema = z.object({
  count: z.number(),
  /** False when the number is an estimate (too many matches to count cheaply). */
  exact: z.boolean(),
});
export type HistoryCount = z.infer<typeof historyCountSchema>;

export const historyUsersSchema = z.object({
  items: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type HistoryUsers = z.infer<typeof historyUsersSchema>;

export const historyIdParamsSchema = z.object({ id: z.string().min(1).max(200) });
