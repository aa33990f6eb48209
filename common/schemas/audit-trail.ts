import { z } from './zod.js';

export const auditVerificationSchema = z.object({
  id: z.string(),
  status: z.enum(['running', 'ok', 'failed', 'error']),
  trigger: z.enum(['manual', 'daily']),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  checked: z.number().int(),
  total: z.number().int(),
  problem: z.string().nullable(),
  problemIndex: z.number().int().nullable(),
  problemId: z.string().nullable(),
});
export type AuditVerification = z.infer<typeof auditVerificationSchema>;

export const auditAnchorSchema = z.object({
  index: z.number().int(),
  hash: z.string(),
  count: z.number().int(),
  at: z.string(),
  file: z.string(),
});

export const auditArchiveSchema = z.object({
  file: z.string(),
  firstIndex: z.number().int(),
  lastIndex: z.number().int(),
  count: z.number().int(),
  createdAt: z.string(),
  bytes: z.number().int(),
});

export const auditTrailStatusSchema = z.object({
  head: z.object({ index: z.number().int(), hash: z.string(), baseIndex: z.number().int(), entries: z.number().int() }),
  last: auditVerificationSchema.nullable(),
  lastAnchor: auditAnchorSchema.nullable(),
  retentionDays: z.number().int().nullable(),
  archives: z.array(auditArchiveSchema),
});
export type AuditTrailStatus = z.infer<typeof auditTrailStatusSchema>;

export const archiveFileParamsSchema = z.object({
  file: z.string().regex(/^audit-\d+-\d+-[0-9TZ]+\.jsonl\.gz$/, 'Unknown archive file.'),
});
