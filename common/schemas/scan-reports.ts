import { z } from './zod.js';
import { SCAN_REPORT_TEXTS } from '../scan-reports.js';

const token = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, SCAN_REPORT_TEXTS.idFormat);

/**
 * One scan's report from the farmer app: what the model said, when, where (from the farmer's
 * profile, optional), and an anonymous install id. No photo, no name, no phone number: unknown
 * fields are refused, so nothing else can be stored by mistake.
 */
export const scanReportSchema = z
  .object({
    /** Made by the app (a UUID), the same on every retry: a report is stored once. */
    reportId: token,
    /** A label of labels.txt: a disease's slug or a training class ('healthy-leaf'). */
    label: z.string().trim().min(1).max(80),
    confidence: z.number().min(0).max(1),
    modelVersion: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[\w.+-]+$/, 'modelVersion may hold letters, digits, _ . + and - only'),
    scannedAt: z.iso.datetime({ offset: true, error: 'scannedAt must be an ISO-8601 date-time, e.g. 2026-03-01T08:30:00+08:00' }),
    municipality: z.string().trim().max(60).optional(),
    barangay: z.string().trim().max(80).optional(),
    /** The install's id (from its install token, which is what counts); optional, and then the token's. */
    installId: token.optional(),
  })
  .strict();
export type ScanReportInput = z.infer<typeof scanReportSchema>;

/** An install's registration: nothing about the phone or the farmer is asked. */
export const installRegistrationSchema = z.object({}).strict().nullish();

export const installTokenSchema = z.object({
  /** Random, made by the server: the install's id in the reports it sends. */
  installId: z.string(),
  /** Sent with every scan report as `Authorization: Bearer <installToken>`; kept for the life of the install. */
  installToken: z.string(),
});

export const scanReportResultSchema = z.object({
  reportId: z.string(),
  /** 'accepted' the first time, 'duplicate' when the report was stored already. */
  status: z.enum(['accepted', 'duplicate']),
});

export const detectionsQuerySchema = z.object({
  diseaseId: z.string().max(100).optional(),
});

export const detectionsSchema = z.object({
  /** The 12 weeks (Monday to Sunday, Manila time), oldest first: each week's first day. */
  weeks: z.array(z.string()),
  /** Reports per disease per week (diseases with any report in the 12 weeks, most first). */
  series: z.array(z.object({ diseaseId: z.string(), name: z.string(), counts: z.array(z.number()), total: z.number() })),
  /** The diseases reported most in the last 30 days. */
  top: z.array(z.object({ diseaseId: z.string(), name: z.string(), reports: z.number() })),
  /** Reports per Tarlac municipality in the last 30 days (every municipality, then 'Not given'), for one disease or all. */
  municipalities: z.array(z.object({ municipality: z.string().nullable(), reports: z.number() })),
  /** Reports per model version in the last 30 days, most first; `known` is false for a version never uploaded to Scanner models. */
  models: z.array(z.object({ modelVersion: z.string(), reports: z.number(), known: z.boolean() })),
  /** Every live disease (for the filter). */
  diseases: z.array(z.object({ id: z.string(), name: z.string() })),
  diseaseId: z.string().nullable(),
  generatedAt: z.string(),
});
export type Detections = z.infer<typeof detectionsSchema>;
