import { CATALOG_TEXT_FIELDS, type CatalogTextField } from '../../../../common/catalog-fields.js';
import type { Kysely, Transaction } from 'kysely';
import { movedInOrder, type CatalogKind } from '../../../../common/catalog.js';
import { CATALOG_LABELS, PHOTO_ORDER_TEXTS } from '../../../../common/catalog-texts.js';
import type {
  CatalogCreateInput,
  CatalogEntryDetail,
  CatalogList,
  CatalogUpdateInput,
  PhotoMoved,
  StagedImage,
  CatalogListQuery,
} from '../../../../common/schemas/catalog.js';
import type { Database } from '../../../db/types.js';
import { getDiseaseEnums } from '../maintenance/index.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { runCommand } from '../../../platform/writes/command.js';
import { moveStamps, recordsStamp } from '../../../platform/cache/stamps.js';
import { newId, nowIso } from '../../../platform/support/clock.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail, invalid } from '../../../platform/http/errors.js';
import { assertUpdated } from '../../../platform/writes/versioning.js';
import { entryPhotos } from '../photos/index.js';
import { photoLibrary, type StageOptions } from '../photos/index.js';
import { auditSnapshot, parseList, presentDetail, presentListRow } from './presenter.js';
import { catalogRepository, type CatalogRow } from './repository.js';
import { VERSION_TEXTS } from '../../../../common/versions.js';
import { recordCurrentVersion, recordVersion } from '../../publishing/versions/index.js';
import { draftsRecords } from '../drafts/index.js';
import { restoreTranslations } from '../translations/index.js';
import { catalogSnapshot } from './presenter.js';

/** Text fields are stored trimmed (the schema trims them); an empty optional text is stored as null. */
export function storedFields(
  input: Pick<CatalogCreateInput, 'name' | CatalogTextField>,
): { name: string } & Record<CatalogTextField, string | null> {
  const texts = Object.fromEntries(CATALOG_TEXT_FIELDS.map((k) => [k, input[k].trim() === '' ? null : input[k].trim()])) as Record<
    CatalogTextField,
    string | null
  >;
  return { name: input.name, ...texts };
}

/** Who is saving: only holders of trainingData.export (super admins) may set the training-class flag. */
export interface SaveOptions {
  canSetTrainingClass?: boolean;
  skipImageMinimum?: boolean;
  /** A restore of this earlier version: photos that were the entry's (kept for its versions) may come back. */
  restoredFrom?: number;
  /** The restorer may undo a Dataset health removal (its permission); others bring back only photos an edit took out. */
  canRestoreRemoved?: boolean;
  /** A create published from review: its author's add-form draft went when it was sent, and any draft now is a newer one. */
  keepDraft?: boolean;
  /** A version restored: its translations come back with it. */
  translations?: Record<string, string>;
}

/** One photo moved to a place in its entry's order (0: the main photo). */
export interface PhotoMove {
  photoId: string;
  position: number;
}

/** The ids with each move made in turn; a photo not among them, or a place outside the list, is refused (400). */
export function applyMoves(ids: readonly string[], moves: readonly PhotoMove[]): string[] {
  let order = [...ids];
  for (const move of moves) {
    if (!order.includes(move.photoId)) invalid({ photoId: PHOTO_ORDER_TEXTS.notInEntry });
    const next = movedInOrder(order, move.photoId, move.position);
    if (!next) invalid({ position: PHOTO_ORDER_TEXTS.positionOutside(order.length) });
    order = next;
  }
  return order;
}

export function createCatalogService(ctx: AppContext, kind: CatalogKind) {
  const photos = entryPhotos(ctx);
  const library = photoLibrary(ctx);
  const { collection } = kind;

  /**
   * The farmer-app fields of a save: affected parts from the managed list (its spelling; parts
   * the entry has already may stay after they leave the list), the training-class flags.
   */
  async function kindFields(
    trx: Kysely<Database> | Transaction<Database>,
    input: CatalogCreateInput | CatalogUpdateInput,
    before: CatalogRow | null,
    options: SaveOptions,
  ) {
    const parts: string[] = [];
    if (kind.affectedParts) {
      const { affectedParts: allowed } = await getDiseaseEnums(trx);
      const kept = parseList(before?.affectedParts);
      for (const raw of input.affectedParts) {
        const value = allowed.find((a) => a.toLocaleLowerCase('en') === raw.toLocaleLowerCase('en')) ?? kept.find((k) => k === raw);
        if (value === undefined) invalid({ affectedParts: CATALOG_LABELS.affectedPartsUnknown });
        if (!parts.includes(value)) parts.push(value);
      }
    }
    // A second entry of a name is saved only when the user confirmed it.
    const other = input.allowDuplicateName ? undefined : await catalogRepository.withName(trx, collection, input.name, before?.id ?? null);
    if (other) {
      const message = CATALOG_LABELS.duplicateName(kind.texts.noun, other.name);
      fail('CONFLICT', message, { name: message }, { reason: 'duplicate_name', otherId: other.id, otherName: other.name });
    }
    const wasTraining = Number(before?.isTrainingClass ?? 0) === 1;
    const training = kind.trainingClasses && input.isTrainingClass;
    if (training !== wasTraining && !options.canSetTrainingClass)
      fail('FORBIDDEN', CATALOG_LABELS.trainingClassForbidden, { isTrainingClass: CATALOG_LABELS.trainingClassForbidden });
    const notRice = kind.trainingClasses && input.notRicePlant;
    if (notRice && !training) invalid({ notRicePlant: CATALOG_LABELS.notRicePlantNeedsTraining });
    if (notRice !== (Number(before?.notRicePlant ?? 0) === 1) && !options.canSetTrainingClass)
      fail('FORBIDDEN', CATALOG_LABELS.trainingClassForbidden, { notRicePlant: CATALOG_LABELS.trainingClassForbidden });
    return { affectedParts: JSON.stringify(parts), isTrainingClass: training ? 1 : 0, notRicePlant: notRice ? 1 : 0 };
  }

  async function detail(id: string): Promise<CatalogEntryDetail> {
    const row = await catalogRepository.findLive(ctx.db, collection, id);
    if (!row) fail('NOT_FOUND');
    return presentDetail(row, await photos.ofEntry(id));
  }

  return {
    kind,

    async list(query: CatalogListQuery): Promise<CatalogList> {
      const { rows, total } = await catalogRepository.list(ctx.db, collection, query);
      return { items: rows.map(presentListRow), total, offset: query.offset, limit: query.limit };
    },

    detail,

    /** Another live entry of the kind with this name (the form names it while the user types). */
    nameTaken: async (name: string, exceptId: string | null) => ({
      taken: (await catalogRepository.withName(ctx.db, collection, name, exceptId)) ?? null,
    }),

    stage: (source: AsyncIterable<Buffer>, options: StageOptions, truncated: () => boolean = () => false): Promise<StagedImage> =>
      library.stage(kind, source, options, truncated),

    /** Removes the caller's own staged photos (a file taken out of the list, a closed dialog). */
    discardStaged: (ids: string[], actor: Actor): Promise<number> => library.discardStaged(kind, actor.id, ids),

    /**
     * A save's checks without writing (a change sent for review): the same 404, 409, option-list,
     * training-flag and photo checks as create (id null) and update.
     */
    async checkSave(
      id: string | null,
      input: CatalogCreateInput | CatalogUpdateInput,
      actor: Actor,
      options: SaveOptions = {},
    ): Promise<void> {
      const minimum = id === null && !options.skipImageMinimum ? kind.minImagesOnCreate : undefined;
      if (minimum !== undefined && input.imageIds.length < minimum) invalid({ imageIds: kind.texts.minImages });
      if (input.imageIds.length > kind.maxImages) invalid({ imageIds: kind.texts.maxImages });
      const before = id === null ? null : ((await catalogRepository.findLive(ctx.db, collection, id)) ?? null);
      if (id !== null && !before) fail('NOT_FOUND');
      if (before && 'version' in input && Number(before.version) !== input.version)
        fail('VERSION_CONFLICT', undefined, undefined, { currentVersion: Number(before.version) });
      await kindFields(ctx.db, input, before, options);
      await photos.plan(ctx.db, {
        kind,
        entryId: id,
        entryName: input.name,
        imageIds: input.imageIds,
        uploadedBy: actor.id,
        ...(minimum === undefined ? {} : { minimum }),
      });
    },

    /** The record, its photos and its audit entry in one transaction; files move last. */
    async create(input: CatalogCreateInput, actor: Actor, options: SaveOptions = {}): Promise<CatalogEntryDetail> {
      const minimum = options.skipImageMinimum ? undefined : kind.minImagesOnCreate;
      if (minimum !== undefined && input.imageIds.length < minimum) invalid({ imageIds: kind.texts.minImages });
      if (input.imageIds.length > kind.maxImages) invalid({ imageIds: kind.texts.maxImages });
      const id = newId();
      const now = nowIso();
      await runCommand(ctx, actor, async (trx, cmd) => {
        await catalogRepository.lockName(trx, collection, input.name);
        const fields = { ...storedFields(input), ...(await kindFields(trx, input, null, options)) };
        const plan = await photos.plan(trx, {
          kind,
          entryId: null,
          entryName: input.name,
          imageIds: input.imageIds,
          uploadedBy: actor.id,
          ...(minimum === undefined ? {} : { minimum }),
        });
        const { imageIds, mainImageUrl } = plan;
        await catalogRepository.insert(trx, collection, {
          id,
          ...fields,
          mainImageUrl,
          createdAt: now,
          updatedAt: now,
          deletedAt: null,
          deletedBy: null,
        });
        if (!options.keepDraft) await draftsRecords.remove(trx, actor.id, collection);
        const auditId = await cmd.audit({
          action: 'CREATE',
          collection,
          documentId: id,
          documentName: input.name,
          description: `Added ${kind.texts.noun} "${input.name}" with ${imageIds.length} ${imageIds.length === 1 ? 'image' : 'images'}`,
          changes: { before: null, after: auditSnapshot({ ...fields, mainImageUrl }, imageIds.length) },
        });
        await recordVersion(trx, {
          collection,
          documentId: id,
          recordVersion: 1,
          auditId,
          actor,
          snapshot: catalogSnapshot({ ...fields, name: input.name }, imageIds),
          kind: 'create',
        });
        await photos.attach(trx, cmd, id, plan, now);
        await moveStamps(trx, [recordsStamp(collection)]);
        cmd.publish({ topic: collection, id, op: 'create' });
      });
      return detail(id);
    },

    /**
     * An edit names the version it edited and the final image list: kept existing photos and
     * new staged ones in order; existing photos left out are taken out of the entry, their files
     * kept while a version holds them. A restore may also name photos the entry had before.
     */
    async update(id: string, input: CatalogUpdateInput, actor: Actor, options: SaveOptions = {}): Promise<CatalogEntryDetail> {
      const now = nowIso();
      await runCommand(ctx, actor, async (trx, cmd) => {
        const before = await catalogRepository.findLive(trx, collection, id);
        if (!before) fail('NOT_FOUND');
        await catalogRepository.lockName(trx, collection, input.name);
        const fields = { ...storedFields(input), ...(await kindFields(trx, input, before, options)) };
        const plan = await photos.plan(trx, {
          kind,
          entryId: id,
          entryName: input.name,
          imageIds: input.imageIds,
          uploadedBy: actor.id,
          ...(options.restoredFrom === undefined ? {} : { former: { withRemoved: Boolean(options.canRestoreRemoved) } }),
        });
        const { imageIds, mainImageUrl, existing, retired, added } = plan;
        if (options.translations) await restoreTranslations(trx, collection, id, options.translations, storedFields(input), actor.id);
        const updated = await catalogRepository.updateVersioned(trx, collection, id, input.version, {
          ...fields,
          mainImageUrl,
          updatedAt: now,
        });
        if (Number(updated) === 0) {
          const current = await catalogRepository.findLive(trx, collection, id);
          assertUpdated(updated, current, (row: never) => presentDetail(row, existing));
        }
        const restore = options.restoredFrom;
        const auditId = await cmd.audit({
          action: restore === undefined ? 'UPDATE' : 'RESTORE_VERSION',
          collection,
          documentId: id,
          documentName: input.name,
          description:
            `${restore === undefined ? 'Updated' : VERSION_TEXTS.auditRestoredPrefix(restore)} ` +
            `${kind.texts.noun} "${input.name}"${added || retired.length ? ` (${added} ${added === 1 ? 'image' : 'images'} added, ${retired.length} removed)` : ''}`,
          changes: {
            before: auditSnapshot(before, existing.length),
            after: auditSnapshot({ ...fields, mainImageUrl }, imageIds.length),
          },
          details:
            added || retired.length || restore !== undefined
              ? {
                  ...(added || retired.length ? { imagesAdded: added, imagesRemoved: retired.length } : {}),
                  ...(restore === undefined ? {} : { restoredVersion: restore }),
                }
              : undefined,
        });
        await recordVersion(trx, {
          collection,
          documentId: id,
          recordVersion: input.version + 1,
          auditId,
          actor,
          snapshot: catalogSnapshot({ ...fields, name: input.name }, imageIds),
          kind: restore === undefined ? 'edit' : 'restore',
          ...(restore === undefined ? {} : { restoredFrom: restore }),
        });
        await photos.attach(trx, cmd, id, plan, now);
        await moveStamps(trx, [recordsStamp(collection)]);
        cmd.publish({ topic: collection, id, op: 'update' });
      });
      return detail(id);
    },

    /** What movePhotos would do, checked and nothing written (a move sent for review): 404, 409 and 400 as it. */
    async checkMoves(id: string, version: number, moves: readonly PhotoMove[]): Promise<{ name: string }> {
      const row = await catalogRepository.findLive(ctx.db, collection, id);
      if (!row) fail('NOT_FOUND');
      if (Number(row.version) !== version) fail('VERSION_CONFLICT', undefined, undefined, { currentVersion: Number(row.version) });
      applyMoves(
        (await photos.ofEntry(id)).map((r) => r.id),
        moves,
      );
      return { name: row.name };
    },

    /**
     * Photos moved within the entry's order on the edit version they were chosen on, in one
     * command: the entry's version moves first, so its row is held to the commit and a move made
     * at the same time on the same version changes nothing (409); then the photos' places, the
     * main image, the audit entry, a version of the entry, and the live event the farmer app's
     * sync and open tabs follow.
     */
    async movePhotos(id: string, version: number, moves: readonly PhotoMove[], actor: Actor): Promise<PhotoMoved> {
      const now = nowIso();
      return runCommand(ctx, actor, async (trx, cmd) => {
        const before = await catalogRepository.findLive(trx, collection, id);
        if (!before) fail('NOT_FOUND');
        const conflict = (current: number) => fail('VERSION_CONFLICT', undefined, undefined, { currentVersion: current });
        if (Number(before.version) !== version) conflict(Number(before.version));
        if ((await catalogRepository.touch(trx, collection, id, version, now)) === 0) {
          const current = await catalogRepository.findLive(trx, collection, id);
          if (!current) fail('NOT_FOUND');
          conflict(Number(current.version));
        }
        const order = await photos.reorder(trx, id, (ids) => applyMoves(ids, moves));
        if (order.mainImageUrl !== before.mainImageUrl) await catalogRepository.setMainImage(trx, collection, id, order.mainImageUrl);
        const last = moves[moves.length - 1]!;
        const from = order.before.findIndex((r) => r.id === last.photoId);
        const position = order.after.findIndex((r) => r.id === last.photoId);
        const count = order.after.length;
        const { noun } = kind.texts;
        const auditId = await cmd.audit({
          action: 'UPDATE',
          collection,
          documentId: id,
          documentName: before.name,
          description:
            moves.length > 1
              ? PHOTO_ORDER_TEXTS.audit.reviewed(noun, before.name, moves.length)
              : position === 0
                ? PHOTO_ORDER_TEXTS.audit.madeMain(noun, before.name, from + 1)
                : PHOTO_ORDER_TEXTS.audit.moved(noun, before.name, from + 1, position + 1, count),
          ...(order.mainImageUrl === before.mainImageUrl
            ? {}
            : { changes: { before: { mainImageUrl: before.mainImageUrl }, after: { mainImageUrl: order.mainImageUrl } } }),
          details: moves.length > 1 ? { photoMoves: moves.length } : { imageId: last.photoId, fromPosition: from, toPosition: position },
        });
        await recordCurrentVersion(ctx, trx, collection, id, auditId, actor);
        await moveStamps(trx, [recordsStamp(collection)]);
        cmd.publish({ topic: collection, id, op: 'update' });
        return { id, version: version + 1, updatedAt: now, photoId: last.photoId, from, position, count, mainImageUrl: order.mainImageUrl };
      });
    },

    /** Soft delete: the entry is hidden everywhere; its photos stay (they are training data). */
    /** `version`: the edit version the delete was decided on (a delete published from review): 409 when it moved. */
    async remove(id: string, actor: Actor, version?: number): Promise<void> {
      await runCommand(ctx, actor, async (trx, cmd) => {
        const before = await catalogRepository.findLive(trx, collection, id);
        if (!before) fail('NOT_FOUND');
        if (version !== undefined && Number(before.version) !== version) fail('VERSION_CONFLICT');
        const count = await photos.countOfEntry(trx, id);
        const now = nowIso();
        const changed = await catalogRepository.softDelete(trx, collection, id, actor.id, now);
        if (Number(changed) === 0) fail('NOT_FOUND');
        await cmd.audit({
          action: 'DELETE',
          collection,
          documentId: id,
          documentName: before.name,
          description: `Deleted ${kind.texts.noun} "${before.name}"`,
          changes: { before: auditSnapshot(before, count), after: { isDeleted: true, deletedAt: now, deletedBy: actor.id } },
        });
        await moveStamps(trx, [recordsStamp(collection)]);
        cmd.publish({ topic: collection, id, op: 'delete' });
      });
    },
  };
}
