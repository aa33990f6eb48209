import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { labelSlug } from '../../../../common/catalog.js';
import { EVALUATION_SET_LIMITS as L, EVALUATION_SET_TEXTS } from '../../../../common/evaluation-sets.js';
import { leakPairSchema, type EvaluationSet, type LeakPair } from '../../../../common/schemas/evaluation-sets.js';
import type { EvaluationSetsTable } from '../../../db/types/models.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail, invalid } from '../../../platform/http/errors.js';
import { readerOf } from '../../../platform/parsing/file-readers.js';
import type { UploadedSheet } from '../../../platform/spreadsheets/upload.js';
import { newId, nowIso } from '../../../platform/support/clock.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { runCommand } from '../../../platform/writes/command.js';
import { trainingClasses, type TrainingClass } from '../training/index.js';
import { leakPairs, storePhotos } from './intake.js';
import type { evaluationSetTasks, UnpackedPhoto } from './read-worker.js';
import { evaluationSetsRepository as repo } from './repository.js';

const E = EVALUATION_SET_TEXTS.errors;
const A = EVALUATION_SET_TEXTS.audit;
/** The Models screen's topic: its queries refresh on it. */
const TOPIC = 'scanner_models';
const reader = readerOf<typeof evaluationSetTasks>(new URL('./read-worker.js', import.meta.url));

async function sha256OfFile(file: string): Promise<{ sha256: string; size: number }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * What each folder's label means: label_map.json's record when the ZIP has one and it is live,
 * else the live disease or training class whose training-ZIP label is the folder's name or its
 * slug. Every unknown label is named in one refusal.
 */
function mapLabels(photos: readonly UnpackedPhoto[], manifest: Record<string, string> | null, classes: readonly TrainingClass[]) {
  const byId = new Map(classes.map((c) => [c.id, c]));
  const byLabel = new Map(classes.map((c) => [c.label, c]));
  const recordOf = (label: string): TrainingClass | undefined => {
    const mapped = manifest?.[label];
    if (mapped && byId.has(mapped)) return byId.get(mapped);
    return byLabel.get(label) ?? byLabel.get(labelSlug(label));
  };
  const labels = [...new Set(photos.map((p) => p.label))];
  const unknown = labels.filter((l) => !recordOf(l));
  if (unknown.length > 0)
    invalid({
      file: E.unknownLabels(
        unknown.slice(0, 20),
        classes.map((c) => c.label),
      ),
    });
  return new Map(labels.map((l) => [l, recordOf(l)!]));
}

export function createEvaluationSetsService(ctx: AppContext) {
  async function present(rows: EvaluationSetsTable[]): Promise<EvaluationSet[]> {
    const sets = rows.map((r) => ({
      row: r,
      labels: JSON.parse(r.labels) as Array<{ label: string; recordId: string; photos: number }>,
      leaks: leakPairSchema.array().parse(JSON.parse(r.leaks)) satisfies LeakPair[],
    }));
    const names = new Map(
      (await repo.recordNames(ctx.db, [...new Set(sets.flatMap((s) => s.labels.map((l) => l.recordId)))])).map((r) => [r.id, r.name]),
    );
    return sets.map(({ row, labels, leaks }) => ({
      id: row.id,
      name: row.name,
      fileName: row.fileName,
      sha256: row.sha256,
      sizeBytes: Number(row.sizeBytes),
      photoCount: row.photoCount,
      labels: labels.map((l) => ({ ...l, recordName: names.get(l.recordId) ?? null })),
      leakCount: row.leakCount,
      leaks,
      createdBy: row.createdBy,
      createdAt: row.createdAt,
    }));
  }

  return {
    async list(): Promise<EvaluationSet[]> {
      return present(await repo.list(ctx.db));
    },

    /**
     * A set from an uploaded ZIP: unpacked and checked on a file reader's thread, its labels
     * mapped to records, its photos stored as uploads are, its leaks to the training set found,
     * then written with its audit entry in one command. Any refusal leaves nothing stored.
     */
    async create(upload: UploadedSheet, name: string, actor: Actor): Promise<EvaluationSet> {
      if (await repo.nameTaken(ctx.db, name)) invalid({ name: E.nameTaken });
      const { sha256, size } = await sha256OfFile(upload.path);
      const outDir = path.join(ctx.config.dataDir, 'tmp', 'evaluation-sets', crypto.randomBytes(16).toString('hex'));
      await fs.promises.mkdir(outDir, { recursive: true });
      const id = newId();
      try {
        const unpacked = await reader.run(ctx.files, 'unpack', [upload.path, outDir], { field: 'file', timeLimitMs: L.readTimeMs });
        const classes = await trainingClasses(ctx);
        const records = mapLabels(unpacked.photos, unpacked.manifest, classes);
        const { stored, removeStored } = await storePhotos(
          ctx,
          id,
          unpacked.photos.map((photo) => ({ photo, recordId: records.get(photo.label)!.id })),
        );
        try {
          const leaks = await leakPairs(ctx, stored, classes);
          const counts = new Map<string, number>();
          for (const p of stored) counts.set(p.label, (counts.get(p.label) ?? 0) + 1);
          const labels = [...records.entries()]
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([label, record]) => ({ label, recordId: record.id, photos: counts.get(label) ?? 0 }));
          const row: EvaluationSetsTable = {
            id,
            name,
            fileName: upload.fileName.slice(0, 255),
            sha256,
            sizeBytes: size,
            photoCount: stored.length,
            labels: JSON.stringify(labels),
            leakCount: leaks.length,
            leaks: JSON.stringify(leaks.slice(0, L.shownLeaks)),
            createdBy: actor.fullname,
            createdAt: nowIso(),
          };
          await runCommand(ctx, actor, async (trx, cmd) => {
            if (await repo.nameTaken(trx, name)) invalid({ name: E.nameTaken });
            await repo.insert(
              trx,
              row,
              stored.map((p, position) => ({ ...p, setId: id, position })),
            );
            await cmd.audit({
              action: 'CREATE',
              collection: A.collection,
              documentId: id,
              documentName: name,
              description: A.created(name, stored.length),
              details: { sha256, photos: stored.length, labels: labels.map((l) => `${l.label}: ${l.photos}`), leaks: leaks.length },
            });
            cmd.publish({ topic: TOPIC, id, op: 'create' });
          });
        } catch (err) {
          await removeStored();
          throw err;
        }
        return (await present([(await repo.find(ctx.db, id))!]))[0]!;
      } finally {
        await fs.promises.rm(outDir, { recursive: true, force: true });
      }
    },

    async remove(id: string, actor: Actor): Promise<void> {
      const set = await repo.find(ctx.db, id);
      if (!set) fail('NOT_FOUND');
      const photos = await repo.photos(ctx.db, id);
      await runCommand(ctx, actor, async (trx, cmd) => {
        if (await repo.inUse(trx, id)) fail('CONFLICT', E.inUse);
        await repo.remove(trx, id);
        await cmd.audit({
          action: 'DELETE',
          collection: A.collection,
          documentId: id,
          documentName: set.name,
          description: A.deleted(set.name),
          details: { sha256: set.sha256, photos: set.photoCount },
        });
        cmd.publish({ topic: TOPIC, id, op: 'delete' });
        cmd.afterCommit(async () => {
          for (const p of photos) {
            await ctx.storage.delete(p.originalKey).catch(() => undefined);
            await ctx.storage.delete(p.thumbKey).catch(() => undefined);
          }
        });
      });
    },

    /** A stored thumbnail or original of a set's photo, by the photo's id. */
    async photoFile(setId: string, photoId: string, variant: 'thumb' | 'original') {
      const [photo] = await repo.photosByIds(ctx.db, [photoId]);
      if (!photo || photo.setId !== setId) fail('NOT_FOUND');
      return variant === 'thumb' ? photo.thumbKey : photo.originalKey;
    },
  };
}
