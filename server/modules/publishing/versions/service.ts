import {
  describeVersion,
  VERSION_FIELDS,
  VERSION_LIMITS,
  type VersionCollection,
  type VersionSummary,
} from '../../../../common/versions.js';
import type { VersionCompare, VersionFieldValue, VersionItem, VersionList, VersionPhoto } from '../../../../common/schemas/versions.js';
import { maintenanceDocIdSchema, listBelongsTo, type ListKey } from '../../../../common/schemas/maintenance.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { fileUrl } from '../../../platform/storage/storage.js';
import { versionsRepository as repo, type VersionListRow } from './repository.js';
import { photoReads } from '../../content/photos/index.js';
import { parseSnapshot, photoChanges, translationKeys, type Snapshot } from './snapshots.js';
import { translationKeyLabel } from '../../../../common/languages.js';

export function presentVersion(collection: VersionCollection, row: VersionListRow): VersionItem {
  const summary = JSON.parse(row.summary) as VersionSummary;
  return {
    number: Number(row.number),
    recordVersion: Number(row.recordVersion),
    createdAt: row.createdAt,
    actorName: row.actorName,
    auditId: row.auditId,
    summary,
    description: describeVersion(collection, summary),
  };
}

/** The fields a record of the collection shows (an option-list document: its own lists). */
export function fieldKeys(collection: VersionCollection, documentId: string): string[] {
  const keys = Object.keys(VERSION_FIELDS[collection]);
  if (collection !== 'maintenance') return keys;
  const docId = maintenanceDocIdSchema.parse(documentId);
  return keys.filter((key) => listBelongsTo(docId, key as ListKey));
}

function fieldValue(value: unknown): VersionFieldValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(String);
  return JSON.stringify(value);
}

/** The Versions panel's reads: the list, newest first, and two versions compared. */
export function createVersionsService(ctx: Pick<AppContext, 'db'>) {
  const { db } = ctx;

  /** The record's current edit version; 404 when there is no such live record. */
  async function liveVersion(collection: VersionCollection, id: string): Promise<number> {
    if (collection === 'maintenance' && !maintenanceDocIdSchema.safeParse(id).success) fail('NOT_FOUND');
    const current = await repo.liveRecordVersion(db, collection, id);
    if (current === undefined) fail('NOT_FOUND');
    return current;
  }

  async function photosOf(ids: string[]): Promise<{ total: number; items: VersionPhoto[] }> {
    const shown = ids.slice(0, VERSION_LIMITS.comparePhotos);
    const rows = new Map((await photoReads.byIds(db, shown)).map((r) => [r.id, r]));
    return {
      total: ids.length,
      items: shown.map((id) => {
        const r = rows.get(id);
        // Until its thumbnail is made, a photo is shown from its original.
        const key = r?.thumbKey ?? r?.originalKey;
        return { id, thumbUrl: key ? fileUrl(key) : (r?.externalUrl ?? null), name: r?.originalName ?? null };
      }),
    };
  }

  /** Two states of a record field by field, and the photos one has and the other not (a pending change against the published record too). */
  async function compareStates(
    collection: VersionCollection,
    id: string | null,
    a: Snapshot | null,
    b: Snapshot | null,
  ): Promise<Pick<VersionCompare, 'fields' | 'photos'>> {
    const before: Snapshot = a ?? { fields: {} };
    // A state that does not name translations (a proposed edit of the fields) keeps the other's.
    const after: Snapshot = b
      ? { ...b, ...((b.translations ?? before.translations) ? { translations: b.translations ?? before.translations } : {}) }
      : { fields: {} };
    const labels = VERSION_FIELDS[collection];
    const keys = id === null && collection !== 'maintenance' ? Object.keys(labels) : fieldKeys(collection, id ?? '');
    const fields = [
      ...keys.map((key) => ({ key, label: labels[key] ?? key, from: fieldValue(before.fields[key]), to: fieldValue(after.fields[key]) })),
      ...translationKeys(before, after).map((key) => ({
        key,
        label: translationKeyLabel(collection, key),
        from: fieldValue(before.translations?.[key]),
        to: fieldValue(after.translations?.[key]),
      })),
    ].map((f) => ({ ...f, changed: JSON.stringify(f.from) !== JSON.stringify(f.to) }));
    let photos: VersionCompare['photos'] = null;
    if (before.photos || after.photos) {
      const change = photoChanges(before.photos ?? [], after.photos ?? []);
      const [added, removed] = await Promise.all([photosOf(change.added), photosOf(change.removed)]);
      photos = { fromCount: before.photos?.length ?? 0, toCount: after.photos?.length ?? 0, added, removed, reordered: change.reordered };
    }
    return { fields, photos };
  }

  return {
    compareStates,

    async list(collection: VersionCollection, id: string, before: number | undefined, limit: number): Promise<VersionList> {
      const recordVersion = await liveVersion(collection, id);
      const rows = await repo.page(db, collection, id, before, limit + 1);
      const items = rows.slice(0, limit).map((r) => presentVersion(collection, r));
      return { items, recordVersion, nextBefore: rows.length > limit ? items[items.length - 1]!.number : null };
    },

    async compare(collection: VersionCollection, id: string, fromNumber: number, toNumber: number): Promise<VersionCompare> {
      await liveVersion(collection, id);
      const [from, to] = await Promise.all([repo.find(db, collection, id, fromNumber), repo.find(db, collection, id, toNumber)]);
      if (!from || !to) fail('NOT_FOUND');
      const { fields, photos } = await compareStates(collection, id, parseSnapshot(from.snapshot), parseSnapshot(to.snapshot));
      return { from: presentVersion(collection, from), to: presentVersion(collection, to), fields, photos };
    },
  };
}
