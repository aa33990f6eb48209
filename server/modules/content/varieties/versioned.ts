import { varietyEditRules } from '../../../../common/schemas/varieties.js';
import { VERSION_TEXTS } from '../../../../common/versions.js';
import { getVarietyEnums } from '../maintenance/index.js';
import type { RestoreRequest, VersionedCollection } from '../../publishing/versions/index.js';
import { candidate, issuesByField, optionGone, refuse, withEmptyText } from '../../publishing/versions/index.js';
import { varietySnapshot } from './fields.js';
import { varietiesRepository } from './repository.js';
import { translationsRecords } from '../translations/index.js';
import { createVarietiesService } from './service.js';

const COLLECTION = 'rice_seed_varieties';

/** Varieties as versions sees them: snapshots of the stored rows, restores through the varieties service. */
export const varietiesVersioned: VersionedCollection = {
  collection: COLLECTION,

  async current(db, ids) {
    const rows = await varietiesRepository.findMany(db, ids);
    const translations = await translationsRecords.snapshotsOf(
      db,
      COLLECTION,
      rows.map((r) => r.id),
    );
    return new Map(
      rows.map((row) => [
        row.id,
        { snapshot: { ...varietySnapshot(row), translations: translations.get(row.id) ?? {} }, recordVersion: Number(row.version) },
      ]),
    );
  },

  /** Values gone from their option lists are named, with the current choices. */
  async restore(ctx, request: RestoreRequest): Promise<number> {
    const service = createVarietiesService(ctx);
    const { id, input } = request;
    const values = candidate(COLLECTION, request);
    const current = await service.get(id);
    // The rules of an edit of the record as it is now: what it lacks may stay empty.
    const parsed = varietyEditRules(current).safeParse(
      withEmptyText(values, ['releaseName', 'yearRelease', 'breedingCode', 'breederOrigin', 'location', 'plantingMethod']),
    );
    const errors = parsed.success ? {} : issuesByField(parsed.error.issues);
    const enums = await getVarietyEnums(ctx.db);
    const listed = (values: unknown, list: string[], kept: string[]) =>
      optionGone(Array.isArray(values) ? values : [], list).filter((v) => !kept.includes(v));
    const goneSeasons = listed(values.season, enums.seasons, current.season);
    const goneEnvironments = listed(values.environment, enums.environments, current.environment);
    if (goneSeasons[0] !== undefined) errors.season = VERSION_TEXTS.optionGone(goneSeasons[0]);
    if (goneEnvironments[0] !== undefined) errors.environment = VERSION_TEXTS.optionGone(goneEnvironments[0]);
    if (
      typeof values.plantingMethod === 'string' &&
      !enums.plantingMethods.includes(values.plantingMethod) &&
      values.plantingMethod !== current.plantingMethod
    )
      errors.plantingMethod = VERSION_TEXTS.optionGone(values.plantingMethod);
    if (
      typeof values.yearRelease === 'string' &&
      !enums.yearReleases.includes(values.yearRelease) &&
      values.yearRelease !== current.yearRelease
    ) {
      errors.yearRelease = VERSION_TEXTS.optionGone(values.yearRelease);
    }
    // The save checks the lists again (varieties' optionErrors): these name the value that went.
    if (!parsed.success || Object.keys(errors).length > 0) {
      const lists: Record<string, string[]> = {
        season: enums.seasons,
        environment: enums.environments,
        plantingMethod: enums.plantingMethods,
        yearRelease: enums.yearReleases,
      };
      refuse(
        errors,
        Object.fromEntries(
          Object.keys(errors)
            .filter((k) => lists[k])
            .map((k) => [k, lists[k]!]),
        ),
      );
    }
    await service.update(id, parsed.data, input.version, request.actor, {
      from: request.number,
      ...(request.snapshot.translations ? { translations: request.snapshot.translations } : {}),
    });
    return 0;
  },
};
