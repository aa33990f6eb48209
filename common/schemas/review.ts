import { z } from './zod.js';
import { REVIEW_ACTIONS, REVIEW_COLLECTIONS, REVIEW_DECISIONS, REVIEW_LIMITS, REVIEW_STATES, REVIEW_TEXTS } from '../review.js';
import { versionCompareSchema } from './versions.js';

const T = REVIEW_TEXTS.errors;

export const reviewCollectionSchema = z.enum(REVIEW_COLLECTIONS);

export const reviewSettingSchema = z.object({
  collection: reviewCollectionSchema,
  label: z.string(),
  enabled: z.boolean(),
  updatedAt: z.string().nullable(),
  updatedByName: z.string().nullable(),
});
export const reviewSettingsSchema = z.object({ items: z.array(reviewSettingSchema) });
export type ReviewSettings = z.infer<typeof reviewSettingsSchema>;
export const reviewSettingInputSchema = z.object({ enabled: z.boolean() });

const person = z.object({ id: z.string(), name: z.string() }).nullable();

export const pendingChangeSchema = z.object({
  id: z.string(),
  collection: reviewCollectionSchema,
  collectionLabel: z.string(),
  action: z.enum(REVIEW_ACTIONS),
  recordId: z.string().nullable(),
  recordName: z.string(),
  baseVersion: z.number().int().nullable(),
  state: z.enum(REVIEW_STATES),
  version: z.number().int(),
  author: person,
  submittedAt: z.string(),
  reviewer: person,
  reviewedAt: z.string().nullable(),
  comment: z.string().nullable(),
  scheduledAt: z.string().nullable(),
  publishedAt: z.string().nullable(),
  publishedBy: person,
  breakGlassReason: z.string().nullable(),
  publishError: z.string().nullable(),
  /** An import's counts, shown in the queue. */
  summary: z.record(z.string(), z.number()).nullable(),
});
export type PendingChange = z.infer<typeof pendingChangeSchema>;

export const reviewListQuerySchema = z.object({
  state: z.enum(['open', 'all', ...REVIEW_STATES]).default('open'),
  collection: reviewCollectionSchema.optional(),
  recordId: z.string().max(200).optional(),
  mine: z.enum(['true', 'false']).optional(),
  /** Keyset: the last item's submittedAt and id of the page before. */
  after: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(REVIEW_LIMITS.pageSize),
});
export type ReviewListQuery = z.infer<typeof reviewListQuerySchema>;

export const reviewListSchema = z.object({
  items: z.array(pendingChangeSchema),
  /** The cursor of the next page, or null. */
  next: z.string().nullable(),
  total: z.number().int(),
});
export type ReviewList = z.infer<typeof reviewListSchema>;

export const reviewCountSchema = z.object({
  /** Changes waiting for a reviewer (pending). */
  pending: z.number().int(),
  /** Of those, the ones this account may review (not its own). */
  forMe: z.number().int(),
  /** This account's changes sent back to it (rejected or failed). */
  returned: z.number().int(),
});
export type ReviewCount = z.infer<typeof reviewCountSchema>;

export const reviewNextQuerySchema = z.object({
  /** The change just decided: the next is the one after it in the queue. */
  after: z.string().min(1).max(64),
});

/** The next change waiting for this reviewer, or null when none is left. */
export const reviewNextSchema = z.object({ next: z.object({ id: z.string(), recordName: z.string() }).nullable() });
export type ReviewNext = z.infer<typeof reviewNextSchema>;

/** One import row as the review shows it. */
const importRowSchema = z.object({
  row: z.number().int(),
  name: z.string(),
  status: z.string(),
  changed: z.array(z.string()),
  values: z.record(z.string(), z.string()).optional(),
});

export const pendingChangeDetailSchema = z.object({
  change: pendingChangeSchema,
  /**
   * Set once the change is decided (approved, sent back, published): the comparison and the
   * preview are then of the published and proposed states its reviewer saw at the decision.
   * kept false: it was decided before those were kept, and there is nothing to compare.
   */
  decided: z.object({ decision: z.enum(REVIEW_DECISIONS), at: z.string(), kept: z.boolean() }).nullable(),
  /** The record's published edit version now (null: not published). */
  publishedVersion: z.number().int().nullable(),
  /** The published state against the proposed one, field by field (null for an import, or when `decided.kept` is false). */
  comparison: versionCompareSchema.pick({ fields: true, photos: true }).nullable(),
  /** The farmer app's JSON for the published and proposed states (pests, diseases, varieties). */
  preview: z.object({ published: z.unknown().nullable(), proposed: z.unknown().nullable() }).nullable(),
  importRows: z.array(importRowSchema).nullable(),
  /** How many rows the change has in all (importRows holds the first REVIEW_LIMITS.importRowsShown). */
  importRowCount: z.number().int().nullable(),
  /** What the signed-in account may do with it now. */
  can: z.object({
    approve: z.boolean(),
    reject: z.boolean(),
    publish: z.boolean(),
    breakGlass: z.boolean(),
    withdraw: z.boolean(),
    rebase: z.boolean(),
    schedule: z.boolean(),
    editable: z.boolean(),
  }),
});
export type PendingChangeDetail = z.infer<typeof pendingChangeDetailSchema>;

const versionField = z.number().int().min(1);
const comment = z.string().trim().max(REVIEW_LIMITS.maxCommentLength, T.commentTooLong);
const publishAt = z.iso.datetime({ offset: true });

export const approveInputSchema = z.object({
  version: versionField,
  comment: comment.optional(),
  /** Publish at this time instead of now. */
  publishAt: publishAt.optional(),
});
export type ApproveInput = z.infer<typeof approveInputSchema>;

export const rejectInputSchema = z.object({
  version: versionField,
  comment: comment.min(1, T.commentRequired),
});

export const publishInputSchema = z.object({
  version: versionField,
  /** Required when the change is not approved (break glass, super admins). */
  reason: z.string().trim().max(REVIEW_LIMITS.maxReasonLength, T.reasonTooLong).optional(),
});

export const scheduleInputSchema = z.object({
  version: versionField,
  /** null cancels the scheduled publish (the change stays approved). */
  publishAt: publishAt.nullable(),
});

export const changeVersionInputSchema = z.object({ version: versionField });

/**
 * The Review page's "Approve and publish at…" form: the time as Manila's wall clock, as a
 * datetime-local input gives it (YYYY-MM-DDTHH:mm), sent as ISO with Manila's +08:00 offset.
 */
export const scheduleFormSchema = z.object({
  publishAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, T.scheduleInPast)
    .transform((local) => `${local}:00+08:00`)
    .refine((iso) => Date.parse(iso) > Date.now(), T.scheduleInPast)
    .refine((iso) => Date.parse(iso) <= Date.now() + REVIEW_LIMITS.maxScheduleDays * 86_400_000, T.scheduleTooFar),
  comment: comment.optional(),
});

/** Publish without review (break glass): the reason the route requires of a change not approved. */
export const breakGlassFormSchema = z.object({
  reason: z.string().trim().min(REVIEW_LIMITS.minReasonLength, T.reasonRequired).max(REVIEW_LIMITS.maxReasonLength, T.reasonTooLong),
});

/** What a reviewed route answers instead of its usual body: the save waits for review. */
export const submittedSchema = z.object({ review: pendingChangeSchema, message: z.string() });
export type Submitted = z.infer<typeof submittedSchema>;
