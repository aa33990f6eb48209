import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import yazl from 'yazl';
import { labelSlug } from '../../../../common/catalog.js';
import type { TrainingSetQuery } from '../../../../common/schemas/training.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { csvFileText, type CsvRow } from '../../../platform/spreadsheets/csv-file.js';
import { cleanStoredPhoto, type CleanStoredPhoto } from '../../content/photos/index.js';
import { trainingRepository as repo } from './repository.js';
import { trainingPhotoReads } from '../../content/photos/index.js';
import { SPLITS, splitOf, uniqueLabels, type SplitName } from './split.js';
import { clusterPhotos } from './clusters.js';
import { DATASET_LIMITS, qualityFlags } from '../../../../common/dataset.js';

export interface TrainingClass {
  id: string;
  name: string;
  localName: string | null;
  label: string;
  trainingClass: boolean;
  /** A training class of photos that are not of rice plants (the plant check's negatives). */
  notRicePlant: boolean;
}

/** Every live disease and training class with its label (unique; the oldest record keeps the plain slug). */
export async function trainingClasses(ctx: AppContext): Promise<TrainingClass[]> {
  const rows = await repo.diseases(ctx.db);
  const labels = uniqueLabels(
    rows.map((r) => r.name),
    labelSlug,
  );
  return rows.map((r, i) => ({
    id: r.id,
    name: r.name,
    localName: r.localName,
    label: labels[i]!,
    trainingClass: r.isTrainingClass === 1,
    notRicePlant: r.notRicePlant === 1,
  }));
}

export interface SplitChoice {
  seed: string;
  train: number;
  validation: number;
  conflicts: 'exclude' | 'include';
  /** Also the staged photos that disease edits waiting for review add (published photos only by default). */
  pending?: boolean;
}

/**
 * The training set's photos as its ZIP splits them: copies are clustered across every live
 * disease, a cluster goes whole into one split drawn from the seed, and photos that are copies
 * across diseases are left out unless `conflicts` is 'include'. The scanner's evaluation reads
 * the same list, so a model is scored on the photos the ZIP holds out.
 */
export async function trainingSelection(ctx: AppContext, choice: SplitChoice) {
  const classes = await trainingClasses(ctx);
  const ids = classes.map((c) => c.id);
  const everyPhoto = [
    ...(await trainingPhotoReads.originals(ctx.db, ids)),
    ...(choice.pending ? await trainingPhotoReads.pendingOriginals(ctx.db, ids) : []),
  ];
  const clusters = clusterPhotos(everyPhoto);
  const photos = everyPhoto.flatMap((photo) => {
    const cluster = clusters.get(photo.id)!;
    if (cluster.conflict && choice.conflicts === 'exclude') return [];
    return [
      { ...photo, entryId: photo.entryId!, originalKey: photo.originalKey!, cluster, split: splitOf(cluster.cluster, choice.seed, choice) },
    ];
  });
  return { classes, photos };
}

/** metadata.csv's columns (the README describes them). */
const METADATA_COLUMNS = [
  'file_name',
  'label',
  'split',
  'disease_id',
  'image_id',
  'sha256',
  'width',
  'height',
  'uploaded_at',
  'taken_at',
  'camera_make',
  'camera_model',
  'phash',
  'cluster',
  'quality_flags',
];

interface Duplicates {
  photosInClusters: number;
  clusters: number;
  conflictsLeftOut: number;
}

function readme(
  q: TrainingSetQuery,
  classes: TrainingClass[],
  counts: Map<string, Record<SplitName | 'all', number>>,
  createdAt: string,
  dup: Duplicates,
): string {
  const flat = q.layout === 'flat';
  const root = flat ? 'images' : 'train';
  const lines = [
    '# PalaYan disease-scanner training set',
    '',
    `Made by PalaYan Admin on ${createdAt} from the original photos of ` +
      `${classes.length === 1 ? 'one disease record' : 'the live disease records'} (never re-encoded; ` +
      `without location or other identifying metadata: each keeps only its camera make and model, capture ` +
      `time and orientation).`,
    '',
    '## Layout',
    '',
    flat
      ? '`images/<label>/<photo id>.<ext>`: one folder per label, no split.'
      : '`train/<label>/<photo id>.<ext>`, `validation/<label>/…`, `test/<label>/…`.',
    '',
    '- `labels.txt`: one label a line, sorted by code point: the order image-folder tools number the classes (index 0 first).',
    "- `label_map.json`: label to index, and each label's disease record (id, name, local name, whether it is a training class rather " +
      "than a disease, and whether its photos are not of rice plants: the plant check's negatives).",
    '- `metadata.csv`: file_name, label, split, disease_id, image_id, sha256, width, height, ' +
      'uploaded_at, taken_at, camera_make, camera_model, phash, cluster, quality_flags (sha256, width and ' +
      "height are empty for photos imported without them; taken_at is the camera's clock, with its offset " +
      'when the camera recorded one; empty when the photo had none; phash is the 64-bit perceptual hash in ' +
      'hex, cluster the id of the earliest photo it is a copy of (its own when none), quality_flags any of ' +
      'blurry, dark, bright, low_information, too_small, separated by ;). UTF-8 with a byte-order mark and ' +
      "CRLF line ends, as every CSV of the console: pandas and Arrow read it as it is; Python's csv module " +
      "wants `open(path, encoding='utf-8-sig', newline='')`.",
    '',
    'Labels are slugs of the disease names. Training classes (for example healthy leaves, or not a rice ' +
      'plant) are photo sets kept as disease records with the training-class flag.',
    '',
  ];
  if (q.pending === 'true')
    lines.push(
      '## Photos waiting for review',
      '',
      'This set also holds the photos that disease edits still waiting for review add (pending=true): they ' +
        'are not published in the farmer app yet, and may still be rejected.',
      '',
    );
  lines.push(
    '## Copies',
    '',
    `Photos that are copies of one another (the same bytes, or perceptual hashes at most ` +
      `${DATASET_LIMITS.nearDuplicateBits} of 64 bits apart: the same picture saved again at another ` +
      `quality, resized, slightly cropped or brightened; a mirrored copy is not caught) form a cluster ` +
      `around the earliest of them: a photo joins the cluster of an earlier photo with the same bytes, ` +
      `else of the nearest cluster whose earliest photo is within the threshold, else starts its own. ` +
      `\`cluster\` names it by its earliest photo. ${dup.photosInClusters} photos here are in ` +
      `${dup.clusters} clusters of two or more.`,
    dup.conflictsLeftOut > 0
      ? `${dup.conflictsLeftOut} photos are copies of photos of another disease (one picture, two labels) ` +
          `and are left out; download with \`conflicts=include\` to keep them.`
      : q.conflicts === 'include'
        ? 'Photos that are copies across diseases are kept (conflicts=include).'
        : 'No photo here is a copy of a photo of another disease.',
    '',
  );
  if (!flat) {
    lines.push(
      '## Split',
      '',
      `Each cluster's split is decided by sha256("${q.seed}:<cluster>") read as a number in [0, 1): below ` +
        `${q.train} is train, below ${+(q.train + q.validation).toFixed(6)} validation, else test (ratios ` +
        `${q.train}/${q.validation}/${q.test}, seed \`${q.seed}\`). A cluster goes whole into one split, so ` +
        `copies of a photo never sit in train and test at once; a photo with no copy is a cluster of its ` +
        `own, named by its own id.`,
      'It depends only on the cluster and the seed, within each label: a photo stays in its split when ' +
        "photos are added (a new copy joins its cluster under the earliest photo's name), so a model " +
        'retrained later is tested on the same photos. Download again with the same `seed`, `train`, ' +
        '`validation` and `test` query parameters to reproduce it.',
      '',
    );
  }
  lines.push(
    '## Photos per label',
    '',
    flat ? '| label | photos |' : '| label | train | validation | test |',
    flat ? '|---|---|' : '|---|---|---|---|',
  );
  for (const c of [...classes].sort((a, b) => (a.label < b.label ? -1 : 1))) {
    const n = counts.get(c.label)!;
    lines.push(flat ? `| ${c.label} | ${n.all} |` : `| ${c.label} | ${n.train} | ${n.validation} | ${n.test} |`);
  }
  lines.push(
    '',
    '## Loading',
    '',
    'PyTorch (torchvision):',
    '',
    '```python',
    'from torchvision.datasets import ImageFolder',
    `train = ImageFolder("${root}")  # train.classes == labels.txt`,
    '```',
    '',
    'TensorFlow / Keras:',
    '',
    '```python',
    'import tensorflow as tf',
    `train = tf.keras.utils.image_dataset_from_directory("${root}", image_size=(224, 224))  # class_names == labels.txt`,
    '```',
    '',
    'Hugging Face datasets:',
    '',
    '```python',
    'from datasets import load_dataset',
    `ds = load_dataset("imagefolder", data_dir="${flat ? 'images' : '.'}")  # ` +
      `${flat ? 'one split' : 'train, validation and test splits'}, labels from the folder names`,
    '```',
    '',
  );
  return lines.join('\n');
}

/**
 * The disease scanner's training set in image-folder layout. Streamed as a ZIP that is never
 * built in memory; photos are stored (not recompressed: they are JPEGs already), which also
 * lets the size be known up front.
 */
export function createTrainingService(ctx: AppContext) {
  return {
    async diseaseArchive(q: TrainingSetQuery): Promise<{ stream: Readable; size: number | null; fileName: string; photos: number }> {
      // Copies are looked for across every disease, whichever are downloaded: a copy in another disease is a conflict.
      const { classes: all, photos: everyPhoto } = await trainingSelection(ctx, {
        seed: q.seed,
        train: q.train,
        validation: q.validation,
        conflicts: 'include',
        pending: q.pending === 'true',
      });
      const classes = q.diseaseId ? all.filter((c) => c.id === q.diseaseId) : all;
      if (q.diseaseId && classes.length === 0) fail('NOT_FOUND');
      const byId = new Map(classes.map((c) => [c.id, c]));
      const dup: Duplicates = { photosInClusters: 0, clusters: 0, conflictsLeftOut: 0 };
      const namedClusters = new Set<string>();
      const photos = everyPhoto.filter((p) => byId.has(p.entryId));
      const counts = new Map(classes.map((c) => [c.label, { train: 0, validation: 0, test: 0, all: 0 }]));
      const flat = q.layout === 'flat';
      const entries: { file: string; key: string; size: number; mtime: Date; row: CsvRow; split: string; label: string; clean: boolean }[] =
        [];
      let missing = 0;
      for (const photo of photos) {
        const cls = byId.get(photo.entryId)!;
        const cluster = photo.cluster;
        if (cluster.conflict && q.conflicts === 'exclude') {
          dup.conflictsLeftOut += 1;
          continue;
        }
        if (cluster.size > 1) {
          dup.photosInClusters += 1;
          namedClusters.add(cluster.cluster);
        }
        const stat = await ctx.storage.stat(photo.originalKey);
        if (!stat) {
          missing += 1;
          continue;
        }
        // A photo not yet cleaned (locationCleaned = 0) is cleaned on the way out.
        let clean: CleanStoredPhoto | null = null;
        if (photo.locationCleaned !== 1) {
          try {
            clean = await cleanStoredPhoto(ctx.storage, photo.originalKey);
          } catch (err) {
            ctx.log.warn({ err, imageId: photo.id }, 'training export: a photo that could not be cleaned is left out');
            continue;
          }
        }
        const split = flat ? '' : photo.split;
        const ext = (path.extname(photo.originalKey!) || '.jpg').toLowerCase();
        const file = `${flat ? 'images' : split}/${cls.label}/${photo.id}${ext}`;
        const uploadedAt = photo.linkedAt ?? photo.createdAt;
        const n = counts.get(cls.label)!;
        n.all += 1;
        if (split) n[split as SplitName] += 1;
        entries.push({
          file,
          key: photo.originalKey,
          size: clean ? clean.body.length : stat.size,
          mtime: new Date(uploadedAt),
          split,
          label: cls.label,
          clean: clean !== null,
          row: [
            file,
            cls.label,
            split,
            cls.id,
            photo.id,
            clean ? clean.sha256 : photo.sha256,
            photo.width,
            photo.height,
            uploadedAt,
            clean ? clean.takenAt : photo.takenAt,
            clean ? clean.camera.make : photo.cameraMake,
            clean ? clean.camera.model : photo.cameraModel,
            photo.phash ?? null,
            cluster.cluster,
            qualityFlags({
              sharpness: photo.sharpness ?? null,
              brightness: photo.brightness ?? null,
              entropy: photo.entropy ?? null,
              width: photo.width,
              height: photo.height,
            }).join(';'),
          ],
        });
      }
      if (missing > 0) ctx.log.warn({ missing }, 'training export: stored originals missing on disk');
      dup.clusters = namedClusters.size;
      const splitRank = (s: string) => (s ? SPLITS.indexOf(s as SplitName) : 0);
      entries.sort(
        (a, b) =>
          splitRank(a.split) - splitRank(b.split) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0) || (a.file < b.file ? -1 : 1),
      );

      const labels = classes.map((c) => c.label).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const labelMap = {
        labels,
        label_to_index: Object.fromEntries(labels.map((l, i) => [l, i])),
        classes: labels.map((l, index) => {
          const c = classes.find((x) => x.label === l)!;
          return {
            index,
            label: l,
            disease_id: c.id,
            name: c.name,
            local_name: c.localName,
            training_class: c.trainingClass,
            not_rice_plant: c.notRicePlant,
            photos: counts.get(l)!.all,
          };
        }),
        layout: q.layout,
        ...(flat ? {} : { split: { train: q.train, validation: q.validation, test: q.test, seed: q.seed } }),
      };
      const createdAt = new Date().toISOString();
      const zip = new yazl.ZipFile();
      const text = (name: string, body: string) => zip.addBuffer(Buffer.from(body), name, { compress: false, mtime: new Date(createdAt) });
      text('README.md', readme(q, classes, counts, createdAt, dup));
      text('labels.txt', labels.map((l) => `${l}\n`).join(''));
      text('label_map.json', `${JSON.stringify(labelMap, null, 2)}\n`);
      text(
        'metadata.csv',
        await csvFileText(
          METADATA_COLUMNS,
          entries.map((e) => e.row),
        ),
      );
      for (const e of entries) {
        zip.addReadStreamLazy(e.file, { compress: false, size: e.size, mtime: e.mtime }, (cb) => {
          const stream = e.clean ? cleanStoredPhoto(ctx.storage, e.key).then((c) => Readable.from([c.body])) : ctx.storage.get(e.key);
          stream.then(
            (s) => cb(null, s),
            (err: Error) => cb(err, undefined as never),
          );
        });
      }
      // yazl reports the final size when every entry's size is known and nothing is compressed. Its
      // estimate counts a ZIP64 end record once the central directory passes 64 KiB (about 600
      // photos) while its writer adds one only past 4 GiB, so the Content-Length came out 76 bytes
      // long and downloads hung until the socket closed: forcing the record makes both agree.
      const end = zip.end.bind(zip) as unknown as (options: object, cb: (finalSize: number) => void) => void;
      const size = await new Promise<number>((resolve) => end({ forceZip64Format: true }, resolve));
      const out = new PassThrough();
      zip.outputStream.on('error', (err) => out.destroy(err));
      zip.outputStream.pipe(out);
      const fileName = `training-set-${q.diseaseId ? classes[0]!.label : 'all-diseases'}${flat ? '-flat' : ''}.zip`;
      return { stream: out, size: size >= 0 ? size : null, fileName, photos: entries.length };
    },
  };
}
