import { z } from './zod.js';
import { ACTIVITY_TYPES, COLLECTION_NAMES, COLLECTIONS, type DashboardCountKey } from '../collections.js';

/** One count per collection, named by its registry entry (varieties, pests, diseases, admins). */
export const dashboardCountsSchema = z.object(
  Object.fromEntries(COLLECTION_NAMES.map((name) => [COLLECTIONS[name].dashboard.count, z.number()])) as Record<
    DashboardCountKey,
    z.ZodNumber
  >,
);
export type DashboardCounts = z.infer<typeof dashboardCountsSchema>;

export const activityItemSchema = z.object({
  id: z.string(),
  type: z.enum(ACTIVITY_TYPES).nullable(),
  action: z.string(),
  text: z.string(),
  timestamp: z.string(),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

export const recentActivitiesSchema = z.object({ items: z.array(activityItemSchema) });

/** Content (varieties, pests, diseases) added and changed per Manila week, oldest week first. */
export const contentWeeklySchema = z.object({
  weeks: z.array(z.string()),
  added: z.array(z.number().int()),
  changed: z.array(z.number().int()),
});
export type ContentWeekly = z.infer<typeof contentWeeklySchema>;
