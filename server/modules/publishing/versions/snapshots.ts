import type { VersionSummary } from '../../../../common/versions.js';

/** A record's saved state: its fields as the API shows them and, for pests and diseases, its photo ids in order. */
export interface Snapshot {
  fields: Record<string, unknown>;
  photos?: string[];
  /** Its translations: `<field>@<language>` to text (server/modules/content/translations). */
  translations?: Record<string, string>;
}

export function parseSnapshot(text: string): Snapshot {
  const value = JSON.parse(text) as Partial<Snapshot>;
  return {
    fields: value.fields ?? {},
    ...(Array.isArray(value.photos) ? { photos: value.photos } : {}),
    ...(value.translations && typeof value.translations === 'object' ? { translations: value.translations } : {}),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields of `collection` whose values differ between two snapshots, in the comparison's order. */
export function changedFields(keys: readonly string[], before: Snapshot, after: Snapshot): string[] {
  const translated = translationKeys(before, after).filter((key) => !same(before.translations?.[key], after.translations?.[key]));
  return [...keys.filter((key) => !same(before.fields[key], after.fields[key])), ...translated];
}

/** The translation keys (`<field>@<language>`) either state has, sorted. */
export function translationKeys(a: Snapshot | null, b: Snapshot | null): string[] {
  return [...new Set([...Object.keys(a?.translations ?? {}), ...Object.keys(b?.translations ?? {})])].sort();
}

/** Photos added, removed and whether the kept ones changed order. */
export function photoChanges(before: readonly string[], after: readonly string[]) {
  const had = new Set(before);
  const has = new Set(after);
  const added = after.filter((id) => !had.has(id));
  const removed = before.filter((id) => !has.has(id));
  const keptBefore = before.filter((id) => has.has(id));
  const keptAfter = after.filter((id) => had.has(id));
  const reordered = keptBefore.some((id, i) => keptAfter[i] !== id);
  return { added, removed, reordered };
}

export function summarize(
  keys: readonly string[],
  previous: Snapshot | null,
  next: Snapshot,
  kind: VersionSummary['kind'],
  restoredFrom: number | null,
): VersionSummary {
  const photoCount = next.photos ? next.photos.length : null;
  if (!previous) return { kind, changed: [], photosAdded: 0, photosRemoved: 0, photosReordered: false, photoCount, restoredFrom };
  const photos = photoChanges(previous.photos ?? [], next.photos ?? []);
  return {
    kind,
    changed: changedFields(keys, previous, next),
    photosAdded: photos.added.length,
    photosRemoved: photos.removed.length,
    photosReordered: photos.reordered,
    photoCount,
    restoredFrom,
  };
}
