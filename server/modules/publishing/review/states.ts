import type { Transaction } from 'kysely';
import { isFileAction, REVIEW_DECISIONS, type ReviewDecisionKind } from '../../../../common/review.js';
import type { Database } from '../../../db/types.js';
import type { AppContext } from '../../../platform/http/context.js';
import type { ReviewChange, ReviewSnapshot } from '../../../platform/writes/review-gate.js';
import { versionedCollection } from '../versions/index.js';
import { versionsRecords } from '../versions/index.js';
import { reviewedAction } from './adapters.js';

/** The record as the farmer app has it now (null: not stored, or deleted), with its edit version. */
export async function publishedState(
  ctx: Pick<AppContext, 'collections'>,
  db: AppContext['db'] | Transaction<Database>,
  change: Pick<ReviewChange, 'collection' | 'recordId' | 'action'>,
): Promise<{ snapshot: ReviewSnapshot; version: number } | null> {
  if (!change.recordId) return null;
  // A record in the trash is not in the app.
  if ((await versionsRecords.liveRecordVersion(db, change.collection, change.recordId)) === undefined) return null;
  const current = (await versionedCollection(ctx, change.collection).current(db, [change.recordId])).get(change.recordId);
  if (!current) return null;
  return { snapshot: current.snapshot, version: current.recordVersion };
}

/**
 * The change's two states now: the record as published and as the change would publish it
 * (null for a file's change, which has no one record).
 */
export async function changeStates(
  ctx: AppContext,
  change: ReviewChange,
): Promise<{ published: Awaited<ReturnType<typeof publishedState>>; proposed: ReviewSnapshot | null }> {
  const [published, proposed] = await Promise.all([
    publishedState(ctx, ctx.db, change),
    isFileAction(change.action) ? null : reviewedAction(ctx, change.collection, change.action).proposed(ctx, change),
  ]);
  return { published, proposed };
}

/** What a decision keeps in the change's `decided`: the states the reviewer saw when deciding. */
export interface DecidedStates {
  decision: ReviewDecisionKind;
  at: string;
  before: ReviewSnapshot | null;
  after: ReviewSnapshot | null;
}

/** The `decided` a decision stores (null for a file's change: its rows are kept in its input). */
export function decidedJson(
  change: Pick<ReviewChange, 'action'>,
  decision: ReviewDecisionKind,
  at: string,
  states: Awaited<ReturnType<typeof changeStates>>,
): string | null {
  if (isFileAction(change.action)) return null;
  const kept: DecidedStates = { decision, at, before: states.published?.snapshot ?? null, after: states.proposed };
  return JSON.stringify(kept);
}

/** A change's stored `decided`, or null (not decided, or not kept). */
export function parseDecided(text: string | null): DecidedStates | null {
  if (!text) return null;
  const value = JSON.parse(text) as Partial<DecidedStates>;
  if (!value.decision || !(REVIEW_DECISIONS as readonly string[]).includes(value.decision) || typeof value.at !== 'string') return null;
  return { decision: value.decision, at: value.at, before: value.before ?? null, after: value.after ?? null };
}

/** An audit entry's view of a state: its fields, and its photo count rather than every id. */
export function auditView(state: ReviewSnapshot | null): Record<string, unknown> | null {
  if (!state) return null;
  return { ...state.fields, ...(state.photos ? { images: state.photos.length } : {}) };
}
