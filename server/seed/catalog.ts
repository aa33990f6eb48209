import fs from 'node:fs';
import path from 'node:path';
import { CATALOG_KINDS, type CatalogKind } from '../../common/catalog.js';
import { SYSTEM_ACTOR } from '../platform/writes/audit.js';
import type { AppContext } from '../platform/http/context.js';
import { catalogRecords } from '../modules/content/catalog/index.js';
import { photoRuntime } from '../modules/content/photos/index.js';
import { trainingPhotoReads } from '../modules/content/photos/index.js';
import { createCatalogService } from '../modules/content/catalog/index.js';
import { DemoPhotoSet, demoPhotoPlans, readScannerClasses, type ScannerClasses } from './demo-scenes.js';

/**
 * Demo pests and diseases of demo-data/, each with generated photos (demo-scenes.ts: stylised
 * leaf scenes, labelled as demo images). A demo pest gets 3; a demo disease gets the
 * photosPerDisease of demo-data/scanner/classes.json, painted to its class's mean colour for the
 * demo scanner model; the training class "Not a rice plant" of classes.json gets as many, of its
 * colour, as the plant check's negatives. The seed bypasses the 800-image minimum of a new disease (a user rule for
 * real photo sets). No photo is a near copy of another, so Dataset health finds no copies and the
 * training set leaves none out. An entry whose name exists already is skipped, so running the
 * seed twice adds nothing.
 */
interface DemoRecord {
  name: string;
  /** A training class of photos that are not of rice plants (demo-data/scanner/classes.json). */
  notRicePlant?: boolean;
  scientificName?: string;
  localName?: string;
  affectedParts?: string[];
  description?: string;
  cause?: string;
  symptoms?: string;
  treatments?: string;
}

function readDemo(file: string, key: 'pests' | 'diseases'): DemoRecord[] {
  const full = path.join(import.meta.dirname, '..', '..', 'demo-data', file);
  const parsed = JSON.parse(fs.readFileSync(full, 'utf8')) as Record<string, unknown>;
  const list = parsed[key];
  return Array.isArray(list) ? (list as DemoRecord[]).filter((r) => typeof r?.name === 'string' && r.name.trim() !== '') : [];
}

interface DemoPhotos {
  scanner: ScannerClasses;
  set: DemoPhotoSet;
}

async function seedKind(
  ctx: AppContext,
  kind: CatalogKind,
  records: DemoRecord[],
  photos: DemoPhotos,
  log: (line: string) => void,
): Promise<void> {
  const service = createCatalogService(ctx, kind);
  const missing: DemoRecord[] = [];
  for (const record of records) {
    const name = record.name.trim();
    if (missing.some((m) => m.name.trim().toLowerCase() === name.toLowerCase())) continue;
    if (!(await catalogRecords.findLiveByName(ctx.db, kind.collection, name))) missing.push(record);
  }
  const draw = (record: DemoRecord | undefined) =>
    record ? photos.set.take(demoPhotoPlans(kind.kind, record.name.trim(), photos.scanner)) : null;
  // The next entry's photos are drawn while this one's are stored.
  let next = draw(missing[0]);
  for (const [index, record] of missing.entries()) {
    const name = record.name.trim();
    const drawn = (await next)!;
    next = draw(missing[index + 1]);
    next?.catch(() => undefined);
    const imageIds: string[] = [];
    for (const [i, photo] of drawn.entries()) {
      const staged = await service.stage(
        (async function* () {
          yield photo.jpeg;
        })(),
        { filename: `demo_${i + 1}.jpg`, uploadedBy: SYSTEM_ACTOR.id },
      );
      imageIds.push(staged.id);
    }
    await service.create(
      {
        name,
        scientificName: record.scientificName?.trim() ?? '',
        localName: record.localName?.trim() ?? '',
        affectedParts: kind.affectedParts ? (record.affectedParts ?? []) : [],
        isTrainingClass: record.notRicePlant === true,
        notRicePlant: record.notRicePlant === true,
        description: record.description?.trim() ?? '',
        cause: record.cause?.trim() ?? '',
        symptoms: record.symptoms?.trim() ?? '',
        treatments: record.treatments?.trim() ?? '',
        imageIds,
      },
      SYSTEM_ACTOR,
      { skipImageMinimum: true, canSetTrainingClass: true },
    );
  }
  log(`${kind.texts.title}: ${missing.length} added, ${records.length - missing.length} already present`);
}

export async function seed(ctx: AppContext, log: (line: string) => void): Promise<void> {
  // Disease photos stored already count too: a demo photo must not be a near copy of one of them.
  const stored = await trainingPhotoReads.hashes(ctx.db);
  const photos: DemoPhotos = { scanner: readScannerClasses(), set: new DemoPhotoSet(stored.flatMap((p) => (p.phash ? [p.phash] : []))) };
  await seedKind(ctx, CATALOG_KINDS.pest, readDemo('rice_pests.json', 'pests'), photos, log);
  const notRice = photos.scanner.notRicePlant;
  const trainingClasses: DemoRecord[] = notRice
    ? [{ name: notRice.name, notRicePlant: true, description: 'Demo photos the plant check must tell apart from rice plants.' }]
    : [];
  await seedKind(ctx, CATALOG_KINDS.disease, [...readDemo('rice_diseases.json', 'diseases'), ...trainingClasses], photos, log);
  await photoRuntime(ctx).queue.idle();
  log('demo photo thumbnails ready');
}
