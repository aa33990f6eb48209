import crypto from 'node:crypto';
import type { Insertable } from 'kysely';
import type { CatalogImagesTable } from '../../../db/types/content.js';
import path from 'node:path';
import { NO_CAMERA_FACTS, takenAtIso, type CameraFacts } from '../../content/photos/index.js';
import type { SniffedType } from '../../content/photos/index.js';
import { cleanPhoto } from '../../content/photos/index.js';
import { takeIn } from '../../content/photos/index.js';
import { photosRecords } from '../../content/photos/index.js';
import { fileUrl, safeSegment } from '../../../platform/storage/storage.js';
import { toBool, toIso, toList, toText, type ExportCollections } from './firestore.js';
import { migrationRepository as repo } from './repository.js';
import { stableId, type ImportRun } from './import-run.js';

const STORAGE_FOLDER = { rice_local_pests: 'rice_pests', rice_local_diseases: 'rice_disease' } as const;

/** Pests or diseases, with their images fetched into storage when reachable. */
export async function importCatalog(
  run: ImportRun,
  collection: 'rice_local_pests' | 'rice_local_diseases',
  docs: ExportCollections[string],
): Promise<void> {
  for (const [id, doc] of Object.entries(docs)) {
    run.tick(collection);
    const seen = await run.seenBefore(collection, id, doc);
    if (seen.same) continue;
    const name = toText(doc.name);
    if (!name) {
      run.report.problems.push(`${collection}/${id}: no name; skipped.`);
      run.count(collection, 'skipped');
      continue;
    }
    const urls = [...new Set([...toList(doc.images), ...(toText(doc.mainImageUrl) ? [toText(doc.mainImageUrl)!] : [])])];
    const existing = await repo.findById(run.db, collection, id);
    const imageUrls: string[] = [];
    for (const [position, url] of urls.entries()) {
      const imageId = stableId(collection, id, url);
      const known = await photosRecords.find(run.db, imageId);
      if (known) {
        run.report.images.unchanged += 1;
        imageUrls.push(known.originalKey ? fileUrl(known.originalKey) : known.externalUrl!);
        continue;
      }
      const image = run.dryRun ? { failed: 'dry run' } : await run.fetchImage(url);
      const createdAt = toIso(doc.createdAt) ?? run.importedAt;
      let row: Pick<
        Insertable<CatalogImagesTable>,
        | 'status'
        | 'originalKey'
        | 'mimeType'
        | 'sizeBytes'
        | 'sha256'
        | 'externalUrl'
        | 'takenAt'
        | 'cameraMake'
        | 'cameraModel'
        | 'locationCleaned'
      >;
      if ('body' in image) {
        const base = safeSegment(decodeURIComponent(path.basename(new URL(url).pathname)).replace(/\.[^.]+$/, ''), 'image');
        // Stored as every upload is: without location or identifying metadata, at most PHOTO_MAX_EDGE.
        const photo = await takeInImported(image.body, image.mime as SniffedType, run.photoMaxEdge);
        const ext = photo.mime === image.mime ? image.ext : '.jpg';
        const key = `${STORAGE_FOLDER[collection]}/${safeSegment(name)}/${Date.parse(createdAt)}_${position}_${imageId.slice(0, 8)}_${base}${ext}`;
        await run.storage.put(key, photo.body);
        row = {
          status: 'pending',
          originalKey: key,
          mimeType: photo.mime,
          sizeBytes: photo.body.length,
          sha256: crypto.createHash('sha256').update(photo.body).digest('hex'),
          externalUrl: null,
          takenAt: takenAtIso(photo.camera),
          cameraMake: photo.camera.make,
          cameraModel: photo.camera.model,
          locationCleaned: photo.cleaned ? 1 : 0,
        };
        run.report.images.fetched += 1;
        imageUrls.push(fileUrl(key));
      } else {
        row = { status: 'external', originalKey: null, mimeType: null, sizeBytes: null, sha256: null, externalUrl: url };
        run.report.images.external.push(`${collection}/${id} ${url} (${image.failed})`);
        imageUrls.push(url);
      }
      if (!run.dryRun) {
        await photosRecords.insert(run.db, {
          id: imageId,
          collection,
          entryId: id,
          position,
          displayKey: null,
          thumbKey: null,
          width: null,
          height: null,
          originalName: path.basename(url.split('?')[0] ?? url),
          uploadedBy: null,
          createdAt,
          linkedAt: createdAt,
          ...row,
        });
      }
    }
    await run.upsert(collection, collection, id, {
      name,
      scientificName: toText(doc.scientificName),
      description: toText(doc.description),
      cause: toText(doc.cause),
      symptoms: toText(doc.symptoms),
      treatments: toText(doc.treatments),
      // The farmer app's fields, taken when the export has them (a re-import without them keeps what is stored).
      ...(doc.localName !== undefined ? { localName: toText(doc.localName) } : {}),
      ...(collection === 'rice_local_diseases' && doc.affectedParts !== undefined
        ? {
            affectedParts: JSON.stringify([
              ...new Set(
                toList(doc.affectedParts)
                  .map((p) => p.trim())
                  .filter(Boolean),
              ),
            ]),
          }
        : {}),
      mainImageUrl: imageUrls[0] ?? null,
      isDeleted: toBool(doc.isDeleted) ? 1 : 0,
      createdAt: toIso(doc.createdAt) ?? (existing?.createdAt as string | undefined) ?? run.importedAt,
      updatedAt: toIso(doc.updatedAt),
      deletedAt: toIso(doc.deletedAt),
      deletedBy: toText(doc.deletedBy),
    });
    await run.remember(collection, id, seen.hash);
  }
}

/**
 * An imported photo through the upload's intake (photos/intake.ts takeIn). One the intake cannot
 * take is kept as fetched, cleaned of its metadata when that much can be done, and otherwise left
 * marked for `migrate-photos --strip-location`.
 */
async function takeInImported(
  body: Buffer,
  mime: SniffedType,
  maxEdge: number,
): Promise<{ body: Buffer; mime: string; camera: CameraFacts; cleaned: boolean }> {
  const taken = await takeIn(body, mime, maxEdge).catch(() => 'unreadable' as const);
  if (typeof taken === 'object') return { body: taken.photo.body, mime: taken.photo.type, camera: taken.camera, cleaned: true };
  try {
    const clean = cleanPhoto(body, mime);
    return { body: clean.body, mime, camera: clean.camera, cleaned: true };
  } catch {
    return { body, mime, camera: { ...NO_CAMERA_FACTS }, cleaned: false };
  }
}
