import { z } from './zod.js';

/** GET /api/backups/status: what super admins see of scheduled backups. */
export const backupStatusSchema = z.object({
  configured: z.boolean(),
  everyHours: z.number(),
  keep: z.number(),
  lastGood: z.object({ at: z.string(), location: z.string(), files: z.number(), bytes: z.number() }).nullable(),
  lastFailure: z.object({ at: z.string(), error: z.string() }).nullable(),
  /** No good backup within two schedules. */
  stale: z.boolean(),
});
export type BackupStatus = z.infer<typeof backupStatusSchema>;
