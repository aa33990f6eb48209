import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import yazl from 'yazl';
import type { AppContext } from '../../platform/context.js';
import { fail } from '../../platform/errors.js';
import { safeSegment } from '../../platform/storage.js';
import { trainingRepository as repo } from './repository.js';

function csvCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The disease scanner's training set: original photos, one folder per disease, plus a
 * manifest. Streamed as a ZIP that is never built in memory; photos are stored (not
 * recompressed: they are JPEGs already), which also lets the size be known up front.
 */
export function createTrainingService(ctx: AppContext) {
  return {
    async diseaseArchive(diseaseId?: string): Promise<{ stream: Readable; size: number | null; fileName: string; photos: number }> {
      const diseases = await repo.diseases(ctx.db, diseaseId);
      if (diseaseId && diseases.length === 0) fail('NOT_FOUND');
      const photos = await repo.originals(ctx.db, diseases.map((d) => d.id));
      const zip = new yazl.ZipFile();
      const manifest = ['file,disease,scientificName,uploadedAt,size'];
      const folders = new Map<string, string>();
      const used = new Set<string>();
      for (const d of diseases) {
        let folder = safeSegment(d.name, 'disease');
        while (used.has(folder.toLowerCase())) folder = `${folder}_${d.id.slice(0, 6)}`;
        used.add(folder.toLowerCase());
        folders.set(d.id, folder);
      }
      const byId = new Map(diseases.map((d) => [d.id, d]));
      let missing = 0;
      const rank = new Map(diseases.map((d, i) => [d.id, i]));
      photos.sort((a, b) => rank.get(a.entryId!)! - rank.get(b.entryId!)! || a.position - b.position);
      for (const photo of photos) {
        const disease = byId.get(photo.entryId!)!;
        const stat = await ctx.storage.stat(photo.originalKey!);
        if (!stat) { missing += 1; continue; }
        const ext = path.extname(photo.originalKey!) || '.jpg';
        const base = safeSegment((photo.originalName ?? '').replace(/\.[^.]+$/, ''), 'photo');
        const file = `${folders.get(disease.id)}/${String(photo.position + 1).padStart(4, '0')}_${base}${ext}`;
        const key = photo.originalKey!;
        zip.addReadStreamLazy(file, { compress: false, size: stat.size, mtime: new Date(photo.linkedAt ?? photo.createdAt) }, (cb) => {
          ctx.storage.get(key).then((s) => cb(null, s), (err: Error) => cb(err, undefined as never));
        });
        manifest.push([file, disease.name, disease.scientificName, photo.linkedAt ?? photo.createdAt, stat.size].map(csvCell).join(','));
      }
      if (missing > 0) ctx.log.warn({ missing }, 'training export: stored originals missing on disk');
      zip.addBuffer(Buffer.from(`${manifest.join('\n')}\n`), 'manifest.csv', { compress: false });
      // yazl reports the final size when every entry's size is known and nothing is compressed.
      const end = zip.end.bind(zip) as unknown as (options: object, cb: (finalSize: number) => void) => void;
      const size = await new Promise<number>((resolve) => end({}, resolve));
      const out = new PassThrough();
      zip.outputStream.on('error', (err) => out.destroy(err));
      zip.outputStream.pipe(out);
      const fileName = diseaseId ? `training-set-${folders.get(diseaseId)!.replace(/[^\w.-]+/g, '_')}.zip` : 'training-set-all-diseases.zip';
      return { stream: out, size: size >= 0 ? size : null, fileName, photos: photos.length - missing };
    },
  };
}
