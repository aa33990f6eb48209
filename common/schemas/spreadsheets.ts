import { z } from './zod.js';
import { LIMITS } from '../limits.js';
import { IMPORT_STATUSES, SPREADSHEET_FORMATS } from '../spreadsheets.js';
import { VARIETY_LABELS, type VarietyField } from '../varieties.js';

const VARIETY_FIELDS = Object.keys(VARIETY_LABELS) as [VarietyField, ...VarietyField[]];

/**
 * The import's multipart fields besides the file: `mapping` (JSON: column index → field, or
 * null to leave the column out; columns not named are matched by their header) and, for the
 * import itself, `onErrors`.
 */
export const importMappingSchema = z.record(z.string().regex(/^\d{1,4}$/), z.enum(VARIETY_FIELDS).nullable());
export type ImportMapping = z.infer<typeof importMappingSchema>;
export const importOnErrorsSchema = z.enum(['skip', 'stop']);
export type ImportOnErrors = z.infer<typeof importOnErrorsSchema>;

export const importColumnSchema = z.object({
  index: z.number().int(),
  header: z.string(),
  field: z.enum(VARIETY_FIELDS).nullable(),
  /** A column the console sets itself (Created Date, Last Updated): never imported. */
  readOnly: z.boolean(),
});
export type ImportColumn = z.infer<typeof importColumnSchema>;

export const importRowErrorSchema = z.object({
  /** The column's header as the file has it; the field's label when no column holds it. */
  column: z.string(),
  value: z.string(),
  message: z.string(),
});

export const importRowSchema = z.object({
  /** The row's number in the spreadsheet (the header is row 1). */
  row: z.number().int(),
  name: z.string(),
  status: z.enum(IMPORT_STATUSES),
  /** For an update: the fields it changes. */
  changed: z.array(z.enum(VARIETY_FIELDS)),
  errors: z.array(importRowErrorSchema),
});
export type ImportRow = z.infer<typeof importRowSchema>;

export const importCountsSchema = z.object({
  new: z.number().int(),
  update: z.number().int(),
  unchanged: z.number().int(),
  error: z.number().int(),
});
export type ImportCounts = z.infer<typeof importCountsSchema>;

export const importPreviewSchema = z.object({
  fileName: z.string(),
  format: z.enum(SPREADSHEET_FORMATS),
  columns: z.array(importColumnSchema),
  /** Required fields no column holds. */
  missing: z.array(z.enum(VARIETY_FIELDS)),
  counts: importCountsSchema,
  rows: z.array(importRowSchema),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const importReportSchema = z.object({
  fileName: z.string(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
});
export type ImportReport = z.infer<typeof importReportSchema>;

export const exportQuerySchema = z.object({
  format: z.enum(SPREADSHEET_FORMATS).default('csv'),
  search: z.string().trim().max(LIMITS.maxShortTextLength).default(''),
});

/** The most records a selection exports (a page's worth, many times over). */
export const EXPORT_SELECTION_MAX = 500;

/** An export of the records selected on a list: their ids, comma-separated, in the list's order. */
export const selectionExportQuerySchema = exportQuerySchema.extend({
  ids: z
    .string()
    .max(EXPORT_SELECTION_MAX * 101)
    .transform((text) => [
      ...new Set(
        text
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(z.string().max(100)).min(1).max(EXPORT_SELECTION_MAX, `Export at most ${EXPORT_SELECTION_MAX} selected records at once.`))
    .optional(),
});
