import { COLLECTIONS } from '../../../../common/collections.js';
import { MAINTENANCE } from '../../../../common/maintenance.js';
import type { ReviewAction, ReviewCollection, ReviewState } from '../../../../common/review.js';
import type { PendingChange } from '../../../../common/schemas/review.js';
import type { ReviewChange } from '../../../platform/writes/review-gate.js';
import type { ChangeRow } from './repository.js';

export function collectionLabel(collection: ReviewCollection): string {
  return collection === 'maintenance' ? MAINTENANCE.title : COLLECTIONS[collection].label;
}

/** The pending change as adapters are given it. */
export function changeOf(row: ChangeRow): ReviewChange {
  return {
    id: row.id,
    collection: row.collection as ReviewCollection,
    action: row.action as ReviewAction,
    recordId: row.recordId,
    baseVersion: row.baseVersion === null ? null : Number(row.baseVersion),
    input: JSON.parse(row.input) as unknown,
  };
}

/** The ids of accounts a row names (for one names query per page). */
export function namedAccounts(rows: readonly ChangeRow[]): string[] {
  return rows.flatMap((r) => [r.authorId, r.reviewerId, r.publishedBy]).filter((id): id is string => Boolean(id));
}

export function presentChange(row: ChangeRow, names: Map<string, string>): PendingChange {
  const person = (id: string | null) => (id ? { id, name: names.get(id) ?? (id === 'system' ? 'System User' : '') } : null);
  const collection = row.collection as ReviewCollection;
  return {
    id: row.id,
    collection,
    collectionLabel: collectionLabel(collection),
    action: row.action as ReviewAction,
    recordId: row.recordId,
    recordName: row.recordName,
    baseVersion: row.baseVersion === null ? null : Number(row.baseVersion),
    state: row.state as ReviewState,
    version: Number(row.version),
    author: person(row.authorId),
    submittedAt: row.submittedAt,
    reviewer: person(row.reviewerId),
    reviewedAt: row.reviewedAt,
    comment: row.comment,
    scheduledAt: row.scheduledAt,
    publishedAt: row.publishedAt,
    publishedBy: person(row.publishedBy),
    breakGlassReason: row.breakGlassReason,
    publishError: row.publishError,
    summary: row.summary ? (JSON.parse(row.summary) as Record<string, number>) : null,
  };
}
