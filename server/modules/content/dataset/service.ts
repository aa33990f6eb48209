import { Readable } from 'node:stream';
import { DATASET_SCREEN_LIMITS, DATASET_TEXTS, hammingDistance, qualityFlags, type QualityFlag } from '../../../../common/dataset.js';
import type { DatasetHealth } from '../../../../common/schemas/dataset.js';
import type { AppContext } from '../../../platform/http/context.js';
import { csvFile, type CsvRow } from '../../../platform/spreadsheets/csv-file.js';
import { fileUrl } from '../../../platform/storage/storage.js';
import { clusterPhotos } from '../../farmer-app/training/index.js';
import { datasetRepository as repo } from './repository.js';
import { trainingPhotoReads } from '../photos/index.js';

type Photo = Awaited<ReturnType<typeof trainingPhotoReads.ofLiveDiseases>>[number];
type Kind = DatasetHealth['clusters'][number]['kind'];
const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));

interface Full {
  health: Omit<DatasetHealth, 'clusters' | 'flagged' | 'removed'>;
  clusters: Array<{ cluster: string; kind: Kind; photos: Array<Photo & { distance: number | null }> }>;
  flagged: Array<{ photo: Photo; flags: QualityFlag[] }>;
  names: Map<string, string>;
}

const KIND_ORDER: Record<Kind, number> = { conflict: 0, exact: 1, near: 2 };

/**
 * The training set's health, as the training ZIP will see it: photos per disease, groups of copies
 * (the clusters its split keeps whole; a group across two diseases is a conflict), and photos
 * whose measures earn quality flags.
 */
async function build(ctx: AppContext, pending: boolean): Promise<Full> {
  const [diseases, published, waiting] = await Promise.all([
    repo.diseases(ctx.db),
    trainingPhotoReads.ofLiveDiseases(ctx.db),
    pending ? trainingPhotoReads.pendingOfLiveDiseases(ctx.db) : [],
  ]);
  const photos: Photo[] = [...published, ...waiting];
  const names = new Map(diseases.map((d) => [d.id, d.name]));
  const clusters = clusterPhotos(photos);
  const groups = new Map<string, Photo[]>();
  for (const p of photos) {
    const c = clusters.get(p.id)!;
    if (c.size < 2) continue;
    const list = groups.get(c.cluster);
    if (list) list.push(p);
    else groups.set(c.cluster, [p]);
  }
  const grouped = [...groups.entries()]
    .map(([cluster, list]) => {
      const first = list.find((p) => p.id === cluster) ?? list[0]!;
      const kind: Kind = clusters.get(first.id)!.conflict
        ? 'conflict'
        : list.every((p) => p.sha256 && p.sha256 === first.sha256)
          ? 'exact'
          : 'near';
      const ordered = [first, ...list.filter((p) => p !== first)];
      return {
        cluster,
        kind,
        photos: ordered.map((p) => ({
          ...p,
          distance: p.phash && first.phash ? hammingDistance(first.phash, p.phash) : p.sha256 === first.sha256 ? 0 : null,
        })),
      };
    })
    .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || b.photos.length - a.photos.length || (a.cluster < b.cluster ? -1 : 1));
  const flagged = photos
    .map((photo) => ({
      photo,
      flags: qualityFlags({
        sharpness: num(photo.sharpness),
        brightness: num(photo.brightness),
        entropy: num(photo.entropy),
        width: num(photo.width),
        height: num(photo.height),
      }),
    }))
    .filter((f) => f.flags.length > 0);

  const tally = new Map<string, { photos: number; fingerprinted: number }>();
  for (const p of photos) {
    const t = tally.get(p.entryId!) ?? { photos: 0, fingerprinted: 0 };
    t.photos += 1;
    if (p.phash) t.fingerprinted += 1;
    tally.set(p.entryId!, t);
  }
  const perDisease = diseases.map((d) => {
    const t = tally.get(d.id) ?? { photos: 0, fingerprinted: 0 };
    return {
      id: d.id,
      name: d.name,
      photos: t.photos,
      share: photos.length ? t.photos / photos.length : 0,
      fingerprinted: t.fingerprinted,
    };
  });
  const counts = perDisease.map((d) => d.photos).filter((n) => n > 0);
  const inKind = (kind: Kind) => grouped.filter((g) => g.kind === kind).reduce((n, g) => n + g.photos.length, 0);
  return {
    names,
    clusters: grouped,
    flagged,
    health: {
      diseases: perDisease,
      imbalance: counts.length >= 2 ? Math.min(...counts) / Math.max(...counts) : null,
      totals: {
        photos: photos.length,
        fingerprinted: photos.filter((p) => p.phash).length,
        exact: inKind('exact'),
        near: inKind('near'),
        conflicts: inKind('conflict'),
        flagged: flagged.length,
      },
      clusterCount: grouped.length,
      flaggedCount: flagged.length,
    },
  };
}

const thumb = (p: Photo) => (p.thumbKey ? fileUrl(p.thumbKey) : null);

export function createDatasetService(ctx: AppContext) {
  return {
    /** `pending`: with the photos disease edits waiting for review add (published photos only by default). */
    async health(pending = false): Promise<DatasetHealth> {
      const [full, removed] = await Promise.all([build(ctx, pending), trainingPhotoReads.removed(ctx.db, 200)]);
      return {
        ...full.health,
        removed: removed.map((r) => ({
          id: r.id,
          diseaseId: r.removedFrom!,
          diseaseName: r.name ?? null,
          removedAt: r.removedAt ?? null,
          removedBy: r.fullname ?? null,
          thumbUrl: r.thumbKey ? fileUrl(r.thumbKey) : null,
        })),
        clusters: full.clusters.slice(0, DATASET_SCREEN_LIMITS.clusters).map((g) => ({
          cluster: g.cluster,
          kind: g.kind,
          photos: g.photos.map((p) => ({ id: p.id, diseaseId: p.entryId!, thumbUrl: thumb(p), distance: p.distance })),
        })),
        flagged: full.flagged.slice(0, DATASET_SCREEN_LIMITS.flagged).map(({ photo: p, flags }) => ({
          id: p.id,
          diseaseId: p.entryId!,
          thumbUrl: thumb(p),
          flags,
          sharpness: num(p.sharpness),
          brightness: num(p.brightness),
          brightnessLow: num(p.brightnessLow),
          brightnessHigh: num(p.brightnessHigh),
          entropy: num(p.entropy),
          width: num(p.width),
          height: num(p.height),
        })),
      };
    },

    /** Every group and flagged photo, one photo a line (csv-file.ts writes the file). */
    async csv(pending = false): Promise<Readable> {
      const full = await build(ctx, pending);
      const rows: CsvRow[] = [];
      const measures = (p: Photo) => [
        num(p.sharpness),
        num(p.brightnessLow),
        num(p.brightness),
        num(p.brightnessHigh),
        num(p.entropy),
        num(p.width),
        num(p.height),
      ];
      for (const g of full.clusters) {
        for (const p of g.photos)
          rows.push([g.kind, g.cluster, p.id, p.entryId, full.names.get(p.entryId!) ?? '', p.phash ?? '', p.distance, '', ...measures(p)]);
      }
      for (const { photo: p, flags } of full.flagged) {
        rows.push(['quality', '', p.id, p.entryId, full.names.get(p.entryId!) ?? '', p.phash ?? '', null, flags.join(';'), ...measures(p)]);
      }
      return Readable.from(csvFile(DATASET_TEXTS.csvColumns, rows));
    },
  };
}
