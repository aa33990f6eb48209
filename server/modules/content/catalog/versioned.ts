import { CATALOG_TEXT_FIELDS } from '../../../../common/catalog-fields.js';
import type { CatalogKind } from '../../../../common/catalog.js';
import { can } from '../../../../common/permissions.js';
import { catalogUpdateSchema } from '../../../../common/schemas/catalog.js';
import { VERSION_TEXTS } from '../../../../common/versions.js';
import { getDiseaseEnums } from '../maintenance/index.js';
import { photoReads } from '../photos/index.js';
import type { RestoreRequest, VersionedCollection } from '../../publishing/versions/index.js';
import { candidate, issuesByField, optionGone, refuse, withEmptyText } from '../../publishing/versions/index.js';
import { catalogSnapshot, parseList } from './presenter.js';
import { catalogRepository } from './repository.js';
import { translationsRecords } from '../translations/index.js';
import { createCatalogService } from './service.js';

/** A pest or disease as versions sees it: its fields and photo ids in order; restored through the catalog service. */
export function catalogVersioned(kind: CatalogKind): VersionedCollection {
  const { collection } = kind;
  return {
    collection,

    async current(db, ids) {
      const rows = await catalogRepository.findMany(db, collection, ids);
      const photos = await photoReads.idsOfEntries(
        db,
        rows.map((r) => r.id),
      );
      const translations = await translationsRecords.snapshotsOf(
        db,
        collection,
        rows.map((r) => r.id),
      );
      return new Map(
        rows.map((row) => [
          row.id,
          {
            snapshot: { ...catalogSnapshot(row, photos.get(row.id) ?? []), translations: translations.get(row.id) ?? {} },
            recordVersion: Number(row.version),
          },
        ]),
      );
    },

    async restore(ctx, request: RestoreRequest): Promise<number> {
      const { id, input, role } = request;
      const values = candidate(collection, request);
      const photos = request.snapshot.photos ?? [];
      // Photos a super admin took out in Dataset health come back only for a role that may put them back there.
      const stored = await photoReads.storedOfEntry(ctx.db, id, photos, { withRemoved: can(role, 'trainingData.export') });
      const imageIds = photos.filter((p) => stored.has(p));
      const parsed = catalogUpdateSchema(kind).safeParse({
        ...withEmptyText(values, CATALOG_TEXT_FIELDS),
        imageIds,
        version: input.version,
      });
      const errors = parsed.success ? {} : issuesByField(parsed.error.issues);
      const choices: Record<string, string[]> = {};
      if (kind.affectedParts && Array.isArray(values.affectedParts)) {
        const { affectedParts: allowed } = await getDiseaseEnums(ctx.db);
        const current = (await catalogRepository.find(ctx.db, collection, id))?.affectedParts ?? null;
        const gone = optionGone(values.affectedParts, allowed).filter((v) => !parseList(current).includes(v));
        if (gone[0] !== undefined) {
          errors.affectedParts = VERSION_TEXTS.optionGone(gone[0]);
          choices.affectedParts = allowed;
        }
      }
      if (!parsed.success || Object.keys(errors).length > 0) refuse(errors, choices);
      await createCatalogService(ctx, kind).update(id, parsed.data, request.actor, {
        canSetTrainingClass: can(role, 'trainingData.export'),
        canRestoreRemoved: can(role, 'trainingData.export'),
        restoredFrom: request.number,
        ...(request.snapshot.translations ? { translations: request.snapshot.translations } : {}),
      });
      return photos.length - imageIds.length;
    },
  };
}
