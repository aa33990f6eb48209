import type { Transaction } from 'kysely';
import type { CatalogKind } from '../../../common/catalog.js';
import { CATALOG_LABELS, UPLOAD_TEXTS } from '../../../common/catalog-texts.js';
import type { CatalogCreateInput, CatalogEntryDetail, CatalogList, CatalogUpdateInput, StagedImage } from '../../../common/schemas/catalog.js';
import type { Database } from '../../db/types.js';
import { getDiseaseEnums } from '../maintenance/option-lists.js';
import type { Actor } from '../../platform/writes/audit.js';
import { runCommand } from '../../platform/writes/command.js';
import { newId, nowIso } from '../../platform/support/clock.js';
import type { AppContext } from '../../platform/http/context.js';
import { fail, invalid } from '../../platform/http/errors.js';
import { fileUrl } from '../../platform/storage/storage.js';
import { assertUpdated } from '../../platform/writes/versioning.js';
import { linkAndMove, planLinks, undoMoves, type Move } from '../photos/moves.js';
import { auditSnapshot, parseList, presentDetail, presentListRow } from './presenter.js';
import { discardCopies, withoutExactCopies } from '../photos/exact-copies.js';
import { catalogRepository, type CatalogRow } from './repository.js';
import { catalogRuntime, deleteImageFiles } from '../photos/variants.js';
import { stagePhoto, type StageOptions } from '../photos/intake.js';
import { VERSION_TEXTS } from '../../../common/versions.js';
import { recordVersion } from '../versions/record.js';
import { draftsRepository } from '../drafts/repository.js';
import { catalogSnapshot } from '../versions/snapshots.js';

/** Text fields are stored trimmed; an empty optional field is stored as null. */
function storedFields(input: CatalogCreateInput | CatalogUpdateInput) {
  const orNull = (v: string) => (v === '' ? null : v);
  return {
    name: input.name,
    scientificName: orNull(input.scientificName),
    localName: orNull(input.localName),
    description: orNull(input.description),
    cause: orNull(input.cause),
    symptoms: orNull(input.symptoms),
    treatments: orNull(input.treatments),
  };
}

/** Who is saving: only holders of trainingData.export (super admins) may set the training-class flag. */
export interface SaveOptions {
  canSetTrainingClass?: boolean;
  skipImageMinimum?: boolean;
  /** A restore of this earlier version: photos that were the entry's (kept for its versions) may come back. */
  restoredFrom?: number;
  /** The restorer may undo a Dataset health removal (its permission); others bring back only photos an edit took out. */
  canRestoreRemoved?: boolean;
}

export function createCatalogService(ctx: AppContext, kind: CatalogKind) {
  const runtime = catalogRuntime(ctx);
  const { collection } = kind;

  /**
   * The farmer-app fields of a save: affected parts from the managed list (its spelling; parts
   * the entry has already may stay after they leave the list), the training-class flag.
   */
  async function kindFields(trx: Transaction<Database>, input: CatalogCreateInput | CatalogUpdateInput, before: CatalogRow | null, options: SaveOptions) {
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
    const wasTraining = Number(before?.isTrainingClass ?? 0) === 1;
    const training = kind.trainingClasses && input.isTrainingClass;
    if (training !== wasTraining && !options.canSetTrainingClass) fail('FORBIDDEN', CATALOG_LABELS.trainingClassForbidden, { isTrainingClass: CATALOG_LABELS.trainingClassForbidden });
    return { affectedParts: JSON.stringify(parts), isTrainingClass: training ? 1 : 0 };
  }

  async function detail(id: string): Promise<CatalogEntryDetail> {
    const row = await catalogRepository.findLive(ctx.db, collection, id);
    if (!row) fail('NOT_FOUND');
    return presentDetail(row, await catalogRepository.imagesOf(ctx.db, id));
  }

  return {
    kind,

    async list(query: { search?: string | undefined; offset: number; limit: number }): Promise<CatalogList> {
      const { rows, total } = await catalogRepository.list(ctx.db, collection, query);
      return { items: rows.map(presentListRow), total, offset: query.offset, limit: query.limit };
    },

    detail,

    async stage(source: AsyncIterable<Buffer>, options: StageOptions, truncated: () => boolean = () => false): Promise<StagedImage> {
      const done = runtime.beginUpload();
      try {
        return await stagePhoto(ctx, kind, runtime, source, options, truncated);
      } finally {
        done();
      }
    },

    /** Removes the caller's own staged photos (a file taken out of the list, a closed dialog). */
    async discardStaged(ids: string[], actor: Actor): Promise<number> {
      const rows = await catalogRepository.stagedOwned(ctx.db, collection, actor.id, ids);
      await catalogRepository.deleteImages(ctx.db, rows.map((r) => r.id));
      await deleteImageFiles(ctx, rows);
      return rows.length;
    },

    /** The record, its photos and its audit entry in one transaction; files move last. */
    async create(input: CatalogCreateInput, actor: Actor, options: SaveOptions = {}): Promise<CatalogEntryDetail> {
      if (!options.skipImageMinimum && input.imageIds.length < kind.minImagesOnCreate) invalid({ imageIds: kind.texts.minImages });
      if (input.imageIds.length > kind.maxImages) invalid({ imageIds: kind.texts.maxImages });
      const id = newId();
      const now = nowIso();
      const moved: Move[] = [];
      try {
        await runCommand(ctx, actor, async (trx, cmd) => {
          const fields = { ...storedFields(input), ...await kindFields(trx, input, null, options) };
          const staged = await catalogRepository.stagedOwned(trx, collection, actor.id, input.imageIds);
          if (staged.length !== input.imageIds.length) invalid({ imageIds: UPLOAD_TEXTS.stagedMissing });
          const { kept: imageIds, dropped } = withoutExactCopies(input.imageIds, new Map(staged.map((r) => [r.id, r.sha256])), new Map());
          if (!options.skipImageMinimum && imageIds.length < kind.minImagesOnCreate) invalid({ imageIds: kind.texts.minImages });
          await discardCopies(ctx, trx, cmd, staged.filter((r) => dropped.includes(r.id)));
          const links = planLinks(kind, input.name, new Map(staged.map((r) => [r.id, r])), imageIds, Date.now());
          const mainImageUrl = links[0] ? fileUrl(links[0].to) : null;
          await catalogRepository.insert(trx, collection, { id, ...fields, mainImageUrl, createdAt: now, updatedAt: now, deletedAt: null, deletedBy: null });
          await draftsRepository.remove(trx, actor.id, collection);
          const auditId = await cmd.audit({
            action: 'CREATE',
            collection,
            documentId: id,
            documentName: input.name,
            description: `Added ${kind.texts.noun} "${input.name}" with ${imageIds.length} ${imageIds.length === 1 ? 'image' : 'images'}`,
            changes: { before: null, after: auditSnapshot({ ...fields, mainImageUrl }, imageIds.length) },
          });
          await recordVersion(trx, { collection, documentId: id, recordVersion: 1, auditId, actor, snapshot: catalogSnapshot({ ...fields, name: input.name }, imageIds), kind: 'create' });
          await linkAndMove(ctx, trx, id, links, now, moved);
          cmd.afterCommit(() => { moved.length = 0; });
          cmd.publish({ topic: collection, id, op: 'create' });
        });
      } catch (err) {
        await undoMoves(ctx, moved);
        throw err;
      }
      return detail(id);
    },

    /**
     * An edit names the version it edited and the final image list: kept existing photos and
     * new staged ones in order; existing photos left out are taken out of the entry, their files
     * kept while a version holds them. A restore may also name photos the entry had before.
     */
    async update(id: string, input: CatalogUpdateInput, actor: Actor, options: SaveOptions = {}): Promise<CatalogEntryDetail> {
      const now = nowIso();
      const moved: Move[] = [];
      try {
        await runCommand(ctx, actor, async (trx, cmd) => {
          const before = await catalogRepository.findLive(trx, collection, id);
          if (!before) fail('NOT_FOUND');
          const fields = { ...storedFields(input), ...await kindFields(trx, input, before, options) };
          const existing = await catalogRepository.imagesOf(trx, id);
          const existingById = new Map(existing.map((r) => [r.id, r]));
          const former = options.restoredFrom === undefined ? [] : (await catalogRepository.formerImages(trx, id, input.imageIds.filter((imageId) => !existingById.has(imageId))))
            .filter((r) => options.canRestoreRemoved || !r.removedFrom);
          const formerById = new Map(former.map((r) => [r.id, r]));
          const newIds = input.imageIds.filter((imageId) => !existingById.has(imageId) && !formerById.has(imageId));
          const staged = await catalogRepository.stagedOwned(trx, collection, actor.id, newIds);
          if (staged.length !== newIds.length) invalid({ imageIds: UPLOAD_TEXTS.stagedMissing });
          const { kept: imageIds, dropped } = withoutExactCopies(input.imageIds, new Map(staged.map((r) => [r.id, r.sha256])), new Map([...existing, ...former].map((r) => [r.id, r.sha256])));
          await discardCopies(ctx, trx, cmd, staged.filter((r) => dropped.includes(r.id)));
          const finalIds = new Set(imageIds);
          const removed = existing.filter((r) => !finalIds.has(r.id));
          if (imageIds.length === 0 && existing.length > 0) invalid({ imageIds: UPLOAD_TEXTS.keepOneImage });
          if (imageIds.length > kind.maxImages) invalid({ imageIds: kind.texts.maxImages });

          const links = planLinks(kind, input.name, new Map(staged.map((r) => [r.id, r])), imageIds, Date.now());
          const firstId = imageIds[0];
          const firstExisting = firstId ? existingById.get(firstId) ?? formerById.get(firstId) : undefined;
          const firstLink = links.find((l) => l.id === firstId);
          const mainImageUrl = firstExisting
            ? (firstExisting.originalKey ? fileUrl(firstExisting.originalKey) : firstExisting.externalUrl)
            : firstLink ? fileUrl(firstLink.to) : null;

          const updated = await catalogRepository.updateVersioned(trx, collection, id, input.version, { ...fields, mainImageUrl, updatedAt: now });
          if (Number(updated) === 0) {
            const current = await catalogRepository.findLive(trx, collection, id);
            assertUpdated(updated, current, (row: never) => presentDetail(row, existing));
          }
          const moves: Array<{ id: string; position: number }> = [];
          for (const [position, imageId] of imageIds.entries()) {
            const kept = existingById.get(imageId);
            if ((kept && kept.position !== position) || formerById.has(imageId)) moves.push({ id: imageId, position });
          }
          await catalogRepository.relinkImages(trx, id, former.map((r) => r.id));
          await catalogRepository.setPositions(trx, moves);
          await catalogRepository.retireImages(trx, id, removed.map((r) => r.id));
          const added = links.length + former.length;
          const restore = options.restoredFrom;
          const auditId = await cmd.audit({
            action: restore === undefined ? 'UPDATE' : 'RESTORE_VERSION',
            collection,
            documentId: id,
            documentName: input.name,
            description: `${restore === undefined ? 'Updated' : VERSION_TEXTS.auditRestoredPrefix(restore)} ${kind.texts.noun} "${input.name}"${added || removed.length ? ` (${added} ${added === 1 ? 'image' : 'images'} added, ${removed.length} removed)` : ''}`,
            changes: {
              before: auditSnapshot(before, existing.length),
              after: auditSnapshot({ ...fields, mainImageUrl }, imageIds.length),
            },
            details: added || removed.length || restore !== undefined
              ? { ...(added || removed.length ? { imagesAdded: added, imagesRemoved: removed.length } : {}), ...(restore === undefined ? {} : { restoredVersion: restore }) }
              : undefined,
          });
          await recordVersion(trx, {
            collection, documentId: id, recordVersion: input.version + 1, auditId, actor,
            snapshot: catalogSnapshot({ ...fields, name: input.name }, imageIds),
            kind: restore === undefined ? 'edit' : 'restore', ...(restore === undefined ? {} : { restoredFrom: restore }),
          });
          await linkAndMove(ctx, trx, id, links, now, moved);
          cmd.afterCommit(() => { moved.length = 0; });
          cmd.publish({ topic: collection, id, op: 'update' });
        });
      } catch (err) {
        await undoMoves(ctx, moved);
        throw err;
      }
      return detail(id);
    },

    /** Soft delete: the entry is hidden everywhere; its photos stay (they are training data). */
    async remove(id: string, actor: Actor): Promise<void> {
      await runCommand(ctx, actor, async (trx, cmd) => {
        const before = await catalogRepository.findLive(trx, collection, id);
        if (!before) fail('NOT_FOUND');
        const count = await catalogRepository.imagesOf(trx, id);
        const now = nowIso();
        const changed = await catalogRepository.softDelete(trx, collection, id, actor.id, now);
        if (Number(changed) === 0) fail('NOT_FOUND');
        await cmd.audit({
          action: 'DELETE',
          collection,
          documentId: id,
          documentName: before.name,
          description: `Deleted ${kind.texts.noun} "${before.name}"`,
          changes: { before: auditSnapshot(before, count.length), after: { isDeleted: true, deletedAt: now, deletedBy: actor.id } },
        });
        cmd.publish({ topic: collection, id, op: 'delete' });
      });
    },
  };
}

