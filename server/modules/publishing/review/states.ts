import type { Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';
import type { AppContext } from '../../../platform/http/context.js';
import type { ReviewChange, ReviewSnapshot } from '../../../platform/writes/review-gate.js';
import { versionedCollection } from '../versions/index.js';
import { versionsRecords } from '../versions/index.js';

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

/** An audit entry's view of a state: its fields, and its photo count rather than every id. */
export function auditView(state: ReviewSnapshot | null): Record<string, unknown> | null {
  if (!state) return null;
  return { ...state.fields, ...(state.photos ? { images: state.photos.length } : {}) };
}
