import { z } from './zod.js';

export const dashboardCountsSchema = z.object({
  varieties: z.number(),
  pests: z.number(),
  diseases: z.number(),
  admins: z.number(),
});
export type DashboardCounts = z.infer<typeof dashboardCountsSchema>;

export const activityItemSchema = z.object({
  id: z.string(),
  type: z.enum(['pest', 'disease', 'variety', 'admin']).nullable(),
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
