import { collectionEntry, type ActivityType } from './collections.js';
import { ACTIVITY } from './texts.js';

const ADDED = ['CREATE', 'ADD', 'ADDED', 'INSERT'];
const UPDATED = ['UPDATE', 'UPDATED', 'EDIT', 'EDITED'];
const DELETED = ['DELETE', 'DELETED', 'REMOVE', 'REMOVED'];
/** Review before publishing's steps (not in docs/PRODUCT.md's list: the console's own sentences). */
const REVIEW_STEPS: Record<string, string> = {
  SUBMIT: 'change sent for review',
  APPROVE: 'change approved',
  REJECT: 'changes requested',
  PUBLISH: 'change published',
  SCHEDULE: 'change scheduled',
  UNPUBLISH: 'change taken back',
};

export function activityKind(collection: string | null | undefined): string {
  return collectionEntry(collection)?.kind ?? ACTIVITY.kinds.other;
}

export function activityType(collection: string | null | undefined): ActivityType | null {
  return collectionEntry(collection)?.activity ?? null;
}

/** The dashboard's activity sentence (docs/PRODUCT.md section 2, the overview's recent activities). */
export function activityText(
  action: string | null | undefined,
  collection: string | null | undefined,
  name: string | null | undefined,
): string {
  const kind = activityKind(collection);
  const label = name && name.trim() ? name : ACTIVITY.unknownName;
  const verb = (action ?? '').toUpperCase();
  if (ADDED.includes(verb)) return `New ${kind} added: ${label}`;
  if (UPDATED.includes(verb)) return `${kind} updated: ${label}`;
  if (DELETED.includes(verb)) return `${kind} deleted: ${label}`;
  const step = REVIEW_STEPS[verb];
  if (step) return `${kind} ${step}: ${label}`;
  return `${kind} activity: ${label}`;
}

/** Relative time as s, m, h or d (docs/PRODUCT.md section 2, History logs). */
export function relativeTime(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return 'Invalid';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return 'Invalid';
  const seconds = Math.max(0, Math.floor((now - t) / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}
