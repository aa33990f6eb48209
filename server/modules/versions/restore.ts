import { CATALOG_KIND_LIST, type CatalogKind } from '../../../common/catalog.js';
import { can, type Role } from '../../../common/permissions.js';
import { catalogUpdateSchema } from '../../../common/schemas/catalog.js';
import { maintenanceDocIdSchema, type ListKey, type SaveListsInput } from '../../../common/schemas/maintenance.js';
import { varietyInputSchema } from '../../../common/schemas/varieties.js';
import type { VersionRestoreInput, VersionRestoreResult } from '../../../common/schemas/versions.js';
import { VERSION_TEXTS, type VersionCollection } from '../../../common/versions.js';
import type { Actor } from '../../platform/writes/audit.js';
import type { AppContext } from '../../platform/http/context.js';
import { fail } from '../../platform/http/errors.js';
import { createCatalogService } from '../catalog/service.js';
import { parseList } from '../catalog/presenter.js';
import { createMaintenanceService } from '../maintenance/service.js';
import { getDiseaseEnums, getVarietyEnums } from '../maintenance/option-lists.js';
import { createVarietiesService } from '../varieties/service.js';
import { versionsRepository as repo } from './repository.js';
import { photoReads } from '../photos/repository/reads.js';
import { parseSnapshot, type Snapshot } from './snapshots.js';
import { fieldKeys } from './service.js';

type Errors = Record<string, string>;

/** The first message of each field a schema refused. */
function issuesByField(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): Errors {
  const out: Errors = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? 'form');
    out[key] ??= issue.message;
  }
  return out;
}

/** Refused with the fields to fix and, for option fields, the values the user may choose instead. */
function refuse(errors: Errors, choices: Record<string, string[]>): never {
  const first = Object.values(errors)[0] ?? VERSION_TEXTS.chooseCurrent;
  fail('VALIDATION_FAILED', first, errors, { choices });
}

/** Text fields a snapshot holds as null, as the form sends them: empty. */
function withEmptyText(values: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return { ...values, ...Object.fromEntries(keys.map((key) => [key, values[key] ?? ''])) };
}

const optionGone = (values: ReadonlyArray<unknown>, allowed: readonly string[]) => values.map(String).filter((v) => !allowed.includes(v));

/**
 * Restore this version: the record is saved again through its own service (the same checks,
 * the same 409 when someone saved since, one RESTORE_VERSION audit entry, live events). Values
 * no longer in their option lists are named; the request's replacements choose current ones.
 */
export function createVersionRestore(ctx: AppContext) {
  const varieties = createVarietiesService(ctx);
  const catalog = new Map(CATALOG_KIND_LIST.map((kind) => [kind.collection, createCatalogService(ctx, kind)]));
  const maintenance = createMaintenanceService(ctx);

  /** Someone saved since the panel was read: 409, as an edit gets. */
  async function assertCurrent(collection: VersionCollection, id: string, version: number): Promise<void> {
    const current = await repo.liveRecordVersion(ctx.db, collection, id);
    if (current === undefined) fail('NOT_FOUND');
    if (current !== version) fail('VERSION_CONFLICT', undefined, undefined, { currentVersion: current });
  }

  function candidate(collection: VersionCollection, id: string, snapshot: Snapshot, input: VersionRestoreInput): Record<string, unknown> {
    const keys = new Set(fieldKeys(collection, id));
    const values: Record<string, unknown> = { ...snapshot.fields };
    for (const [key, value] of Object.entries(input.replacements)) if (keys.has(key)) values[key] = value;
    return values;
  }

  async function restoreVariety(id: string, snapshot: Snapshot, input: VersionRestoreInput, number: number, actor: Actor): Promise<number> {
    const values = candidate('rice_seed_varieties', id, snapshot, input);
    const parsed = varietyInputSchema.safeParse(withEmptyText(values, ['releaseName', 'yearRelease', 'breedingCode', 'breederOrigin', 'location', 'plantingMethod']));
    const errors = parsed.success ? {} : issuesByField(parsed.error.issues);
    const enums = await getVarietyEnums(ctx.db);
    const current = await varieties.get(id);
    const goneSeasons = optionGone(Array.isArray(values.season) ? values.season : [], enums.seasons);
    const goneEnvironments = optionGone(Array.isArray(values.environment) ? values.environment : [], enums.environments);
    if (goneSeasons[0] !== undefined) errors.season = VERSION_TEXTS.optionGone(goneSeasons[0]);
    if (goneEnvironments[0] !== undefined) errors.environment = VERSION_TEXTS.optionGone(goneEnvironments[0]);
    if (typeof values.plantingMethod === 'string' && !enums.plantingMethods.includes(values.plantingMethod)) errors.plantingMethod = VERSION_TEXTS.optionGone(values.plantingMethod);
    if (typeof values.yearRelease === 'string' && !enums.yearReleases.includes(values.yearRelease) && values.yearRelease !== current.yearRelease) {
      errors.yearRelease = VERSION_TEXTS.optionGone(values.yearRelease);
    }
    // The save checks the lists again (varieties' optionErrors): these name the value that went.
    if (!parsed.success || Object.keys(errors).length > 0) {
      const lists: Record<string, string[]> = { season: enums.seasons, environment: enums.environments, plantingMethod: enums.plantingMethods, yearRelease: enums.yearReleases };
      refuse(errors, Object.fromEntries(Object.keys(errors).filter((k) => lists[k]).map((k) => [k, lists[k]!])));
    }
    await varieties.update(id, parsed.data, input.version, actor, { from: number });
    return 0;
  }

  async function restoreCatalog(kind: CatalogKind, id: string, snapshot: Snapshot, input: VersionRestoreInput, number: number, actor: Actor, role: Role): Promise<number> {
    const service = catalog.get(kind.collection)!;
    const values = candidate(kind.collection, id, snapshot, input);
    const photos = snapshot.photos ?? [];
    // Photos a super admin took out in Dataset health come back only for a role that may put them back there.
    const stored = await photoReads.storedOfEntry(ctx.db, id, photos, { withRemoved: can(role, 'trainingData.export') });
    const imageIds = photos.filter((p) => stored.has(p));
    const parsed = catalogUpdateSchema(kind).safeParse({
      ...withEmptyText(values, ['scientificName', 'localName', 'description', 'cause', 'symptoms', 'treatments']), imageIds, version: input.version,
    });
    const errors = parsed.success ? {} : issuesByField(parsed.error.issues);
    const choices: Record<string, string[]> = {};
    if (kind.affectedParts && Array.isArray(values.affectedParts)) {
      const { affectedParts: allowed } = await getDiseaseEnums(ctx.db);
      const current = await repo.catalogParts(ctx.db, kind.collection, id);
      const gone = optionGone(values.affectedParts, allowed).filter((v) => !parseList(current).includes(v));
      if (gone[0] !== undefined) { errors.affectedParts = VERSION_TEXTS.optionGone(gone[0]); choices.affectedParts = allowed; }
    }
    if (!parsed.success || Object.keys(errors).length > 0) refuse(errors, choices);
    await service.update(id, parsed.data, actor, { canSetTrainingClass: can(role, 'trainingData.export'), canRestoreRemoved: can(role, 'trainingData.export'), restoredFrom: number });
    return photos.length - imageIds.length;
  }

  async function restoreLists(id: string, snapshot: Snapshot, input: VersionRestoreInput, number: number, actor: Actor): Promise<number> {
    const docId = maintenanceDocIdSchema.parse(id);
    const values = candidate('maintenance', id, snapshot, input);
    const lists: SaveListsInput['lists'] = {};
    for (const key of fieldKeys('maintenance', id)) {
      const list = values[key];
      if (Array.isArray(list)) lists[key as ListKey] = list.map(String);
    }
    await maintenance.save(actor, docId, { version: input.version, lists }, number);
    return 0;
  }

  return {
    async restore(collection: VersionCollection, id: string, number: number, input: VersionRestoreInput, actor: Actor, role: Role): Promise<VersionRestoreResult> {
      if (collection === 'maintenance' && !maintenanceDocIdSchema.safeParse(id).success) fail('NOT_FOUND');
      const version = await repo.find(ctx.db, collection, id, number);
      if (!version) fail('NOT_FOUND');
      await assertCurrent(collection, id, input.version);
      const snapshot = parseSnapshot(version.snapshot);
      const kind = CATALOG_KIND_LIST.find((k) => k.collection === collection);
      const photosMissing = collection === 'rice_seed_varieties' ? await restoreVariety(id, snapshot, input, number, actor)
        : kind ? await restoreCatalog(kind, id, snapshot, input, number, actor, role)
          : await restoreLists(id, snapshot, input, number, actor);
      const latest = await repo.latest(ctx.db, collection, id);
      const recordVersion = await repo.liveRecordVersion(ctx.db, collection, id);
      return { number: latest?.number ?? number, recordVersion: recordVersion ?? input.version + 1, photosMissing };
    },

    close: () => varieties.close(),
  };
}
