import type { Transaction } from 'kysely';
import { CATALOG_LABELS, CATALOG_LIMITS, UPLOAD_TEXTS, type CatalogKind } from '../../../common/catalog.js';
import type { CatalogCreateInput, CatalogEntryDetail, CatalogList, CatalogUpdateInput, StagedImage } from '../../../common/schemas/catalog.js';
import type { Database } from '../../db/types.js';
import { getDiseaseEnums } from '../maintenance/service.js';
import type { Actor } from '../../platform/audit.js';
import { runCommand } from '../../platform/command.js';
import { newId, nowIso } from '../../platform/clock.js';
import type { AppContext } from '../../platform/context.js';
import { fail, invalid } from '../../platform/errors.js';
import { clampBytes, fileNameForType, moveStored, probeImage, readStored, RefusedImageError, sniffStream, TargetExistsError } from '../../platform/images.js';
import { fileUrl, safeSegment } from '../../platform/storage.js';
import { assertUpdated } from '../../platform/versioning.js';
import { auditSnapshot, parseList, presentDetail, presentListRow } from './presenter.js';
import { catalogRepository, type CatalogImageRow, type CatalogRow } from './repository.js';
import { catalogRuntime, deleteImageFiles } from './runtime.js';

interface Move { from: string; to: string }

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

function baseName(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

/** SPEC.md section 7: {folder}/{name}/{timestamp}_{index}_{filename}. */
function finalKey(kind: CatalogKind, entryName: string, timestamp: number, index: number, fileName: string): string {
  return `${kind.folder}/${clampBytes(safeSegment(entryName, kind.kind), 150)}/${timestamp}_${index}_${fileName}`;
}

/** Moves in flight at once: a local move is a hard link, a bucket's a copy and a delete over the network. */
const MOVE_CONCURRENCY_REMOTE = 8;

/**
 * Moves files as the last step of a save; records each move so a failed save can undo them.
 * On a bucket several run at once; after a failure the ones under way finish, then it throws.
 */
async function applyMoves(ctx: AppContext, moves: Move[], done: Move[]): Promise<void> {
  const parallel = ctx.storage.copy ? MOVE_CONCURRENCY_REMOTE : 1;
  let next = 0;
  let failure: { err: unknown } | null = null;
  async function worker(): Promise<void> {
    while (!failure) {
      const move = moves[next++];
      if (!move) return;
      try {
        await moveStored(ctx.storage, move.from, move.to);
        done.push(move);
      } catch (err) {
        failure ??= { err };
      }
    }
  }
  await Promise.all(Array.from({ length: parallel }, worker));
  if (failure) throw (failure as { err: unknown }).err;
}

async function undoMoves(ctx: AppContext, done: Move[]): Promise<void> {
  for (const move of [...done].reverse()) {
    await moveStored(ctx.storage, move.to, move.from).catch((err: unknown) => ctx.log.error({ err, move }, 'could not undo a photo move'));
  }
  done.length = 0;
}

/** Who is saving: only holders of trainingData.export (super admins) may set the training-class flag. */
export interface SaveOptions {
  canSetTrainingClass?: boolean;
  skipImageMinimum?: boolean;
}

export interface StageOptions {
  filename: string;
  uploadedBy: string;
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

  /**
   * Links photos and moves their originals into the entry's folder. Retries a key when a
   * file of that name exists already (never replacing one).
   */
  function planLinks(entryName: string, staged: Map<string, CatalogImageRow>, ordered: string[], timestamp: number) {
    const links: Array<{ id: string; position: number; from: string; to: string }> = [];
    ordered.forEach((imageId, position) => {
      const row = staged.get(imageId);
      if (!row?.originalKey) return;
      links.push({ id: imageId, position, from: row.originalKey, to: finalKey(kind, entryName, timestamp, position, baseName(row.originalKey)) });
    });
    return links;
  }

  async function linkAndMove(trx: Transaction<Database>, entryId: string, links: ReturnType<typeof planLinks>, now: string, done: Move[]): Promise<void> {
    for (const link of links) {
      const linked = await catalogRepository.linkImage(trx, link.id, { entryId, position: link.position, originalKey: link.to, linkedAt: now });
      if (Number(linked) !== 1) invalid({ imageIds: UPLOAD_TEXTS.stagedMissing });
    }
    try {
      await applyMoves(ctx, links.map(({ from, to }) => ({ from, to })), done);
    } catch (err) {
      if (err instanceof TargetExistsError) fail('CONFLICT', 'Please try saving again.');
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') invalid({ imageIds: UPLOAD_TEXTS.stagedMissing });
      throw err;
    }
  }

  async function stageOne(source: AsyncIterable<Buffer>, options: StageOptions, truncated: () => boolean): Promise<StagedImage> {
    const id = newId();
    let sniffed: Awaited<ReturnType<typeof sniffStream>>;
    try {
      sniffed = await sniffStream(source);
    } catch (err) {
      if (err instanceof RefusedImageError) {
        const message = err.reason === 'svg' ? UPLOAD_TEXTS.svgRefused : err.reason === 'heic' ? UPLOAD_TEXTS.heicNotConverted : UPLOAD_TEXTS.notImage;
        fail('UNSUPPORTED_MEDIA_TYPE', message, { file: message });
      }
      throw err;
    }
    const rawName = options.filename || 'photo';
    const fileName = fileNameForType(safeSegment(rawName, 'photo'), sniffed.type);
    const key = `${kind.folder}/_staged/${id}/${fileName}`;
    const cleanup = () => ctx.storage.delete(key).catch(() => undefined);
    try {
      await ctx.storage.put(key, sniffed.body);
    } catch (err) {
      await cleanup();
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' || truncated()) fail('PAYLOAD_TOO_LARGE', UPLOAD_TEXTS.tooLarge, { file: UPLOAD_TEXTS.tooLarge });
      throw err;
    }
    if (truncated()) {
      await cleanup();
      fail('PAYLOAD_TOO_LARGE', UPLOAD_TEXTS.tooLarge, { file: UPLOAD_TEXTS.tooLarge });
    }
    const { sha256, bytes, head } = sniffed.result();
    // The header is in the kept head for nearly every photo; read the file only if not.
    const probe = (await probeImage(head)) ?? (bytes > head.length ? await probeImage(await readStored(ctx.storage, key)) : null);
    if (!probe) {
      await cleanup();
      fail('UNSUPPORTED_MEDIA_TYPE', UPLOAD_TEXTS.unreadable, { file: UPLOAD_TEXTS.unreadable });
    }
    if (probe.width * probe.height > CATALOG_LIMITS.maxImagePixels) {
      await cleanup();
      fail('PAYLOAD_TOO_LARGE', UPLOAD_TEXTS.tooManyPixels, { file: UPLOAD_TEXTS.tooManyPixels });
    }
    const staged = {
      id,
      originalName: clampBytes(rawName, 255),
      mimeType: sniffed.type,
      sizeBytes: bytes,
      width: probe.width,
      height: probe.height,
      sha256,
    };
    try {
      await catalogRepository.insertImage(ctx.db, {
        ...staged,
        collection,
        entryId: null,
        position: 0,
        originalKey: key,
        displayKey: null,
        thumbKey: null,
        externalUrl: null,
        status: 'pending',
        uploadedBy: options.uploadedBy,
        createdAt: nowIso(),
        linkedAt: null,
      });
    } catch (err) {
      await cleanup();
      throw err;
    }
    runtime.queue.push(id);
    return staged;
  }

  return {
    kind,

    async list(query: { search?: string | undefined; offset: number; limit: number }): Promise<CatalogList> {
      const { rows, total } = await catalogRepository.list(ctx.db, collection, query);
      return { items: rows.map(presentListRow), total, offset: query.offset, limit: query.limit };
    },

    detail,

    /**
     * Streams one uploaded photo to a staging folder: the real type from its first bytes, a
     * sha256 on the way, the original unchanged. Variants are queued at once.
     */
    async stage(source: AsyncIterable<Buffer>, options: StageOptions, truncated: () => boolean = () => false): Promise<StagedImage> {
      const done = runtime.beginUpload();
      try {
        return await stageOne(source, options, truncated);
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
          const links = planLinks(input.name, new Map(staged.map((r) => [r.id, r])), input.imageIds, Date.now());
          const mainImageUrl = links[0] ? fileUrl(links[0].to) : null;
          await catalogRepository.insert(trx, collection, { id, ...fields, mainImageUrl, createdAt: now, updatedAt: now, deletedAt: null, deletedBy: null });
          await cmd.audit({
            action: 'CREATE',
            collection,
            documentId: id,
            documentName: input.name,
            description: `Added ${kind.texts.noun} "${input.name}" with ${input.imageIds.length} ${input.imageIds.length === 1 ? 'image' : 'images'}`,
            changes: { before: null, after: auditSnapshot({ ...fields, mainImageUrl }, input.imageIds.length) },
          });
          await linkAndMove(trx, id, links, now, moved);
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
     * new staged ones in order; existing photos left out are removed (files deleted after commit).
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
          const newIds = input.imageIds.filter((imageId) => !existingById.has(imageId));
          const staged = await catalogRepository.stagedOwned(trx, collection, actor.id, newIds);
          if (staged.length !== newIds.length) invalid({ imageIds: UPLOAD_TEXTS.stagedMissing });
          const finalIds = new Set(input.imageIds);
          const removed = existing.filter((r) => !finalIds.has(r.id));
          if (input.imageIds.length === 0 && existing.length > 0) invalid({ imageIds: UPLOAD_TEXTS.keepOneImage });
          if (input.imageIds.length > kind.maxImages) invalid({ imageIds: kind.texts.maxImages });

          const links = planLinks(input.name, new Map(staged.map((r) => [r.id, r])), input.imageIds, Date.now());
          const firstId = input.imageIds[0];
          const firstExisting = firstId ? existingById.get(firstId) : undefined;
          const firstLink = links.find((l) => l.id === firstId);
          const mainImageUrl = firstExisting
            ? (firstExisting.originalKey ? fileUrl(firstExisting.originalKey) : firstExisting.externalUrl)
            : firstLink ? fileUrl(firstLink.to) : null;

          const updated = await catalogRepository.updateVersioned(trx, collection, id, input.version, { ...fields, mainImageUrl, updatedAt: now });
          if (Number(updated) === 0) {
            const current = await catalogRepository.findLive(trx, collection, id);
            assertUpdated(updated, current, (row: never) => presentDetail(row, existing));
          }
          for (const [position, imageId] of input.imageIds.entries()) {
            const kept = existingById.get(imageId);
            if (kept && kept.position !== position) await catalogRepository.setPosition(trx, imageId, position);
          }
          await catalogRepository.deleteImages(trx, removed.map((r) => r.id));
          const added = links.length;
          await cmd.audit({
            action: 'UPDATE',
            collection,
            documentId: id,
            documentName: input.name,
            description: `Updated ${kind.texts.noun} "${input.name}"${added || removed.length ? ` (${added} ${added === 1 ? 'image' : 'images'} added, ${removed.length} removed)` : ''}`,
            changes: {
              before: auditSnapshot(before, existing.length),
              after: auditSnapshot({ ...fields, mainImageUrl }, input.imageIds.length),
            },
            details: added || removed.length ? { imagesAdded: added, imagesRemoved: removed.length } : undefined,
          });
          await linkAndMove(trx, id, links, now, moved);
          // Committed: the moves stay; the removed photos' files go before the event.
          cmd.afterCommit(async () => {
            moved.length = 0;
            if (removed.length > 0) await deleteImageFiles(ctx, removed);
          });
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

