import { CATALOG_KIND_LIST } from '../../../../common/catalog.js';
import type { AppContext } from '../../../platform/http/context.js';
import { entryPhotos } from '../../content/photos/index.js';
import { versionsRepository as repo } from './repository.js';
import { parseSnapshot } from './snapshots.js';

const CATALOG_COLLECTIONS = new Set<string>(CATALOG_KIND_LIST.map((k) => k.collection));

/**
 * Keeps the last `keep` versions of each record and deletes the older ones; then the photos an
 * edit took out of a pest or disease that no kept version holds (rows, then files). Photos
 * removed in Dataset health stay: they wait to be put back.
 */
export async function pruneVersions(ctx: AppContext, keep: number | undefined): Promise<{ versions: number; photos: number }> {
  if (keep === undefined) return { versions: 0, photos: 0 };
  let versions = 0;
  let photos = 0;
  for (const record of await repo.overRetention(ctx.db, keep)) {
    const cut = Number(record.last) - keep + 1;
    versions += await repo.deleteBelow(ctx.db, record.collection, record.documentId, cut);
    if (!CATALOG_COLLECTIONS.has(record.collection)) continue;
    const held = new Set<string>();
    for (const { snapshot } of await repo.snapshotsOf(ctx.db, record.collection, record.documentId)) {
      for (const id of parseSnapshot(snapshot).photos ?? []) held.add(id);
    }
    photos += await entryPhotos(ctx).deleteUnheld(record.documentId, held);
  }
  return { versions, photos };
}
